import { type ScreenRoute, ScreenRoutes } from '@bahi/ui';

export const SCREENS: ScreenRoute[] = [
  { base: 'masters', path: 'cities', title: 'Cities' },
  { base: 'masters', path: 'products', title: 'Products' },
  { base: 'masters', path: 'funders', title: 'Funders' },
  { base: 'masters', path: 'agents', title: 'Agents' },
  { base: 'masters', path: 'godowns', title: 'Godowns' },
  { base: 'masters', path: 'collectors', title: 'Collectors' },
];

export default function MastersRoutes({ base }: { base: string }) {
  return <ScreenRoutes remote="masters" base={base} screens={SCREENS} />;
}
