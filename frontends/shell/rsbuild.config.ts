import { hostConfig } from '../rsbuild.shared.ts';

export default hostConfig();
