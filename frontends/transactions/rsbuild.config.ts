import { remoteConfig } from '../rsbuild.shared.ts';

export default remoteConfig('transactions');
