import { useSession } from '@bahi/ui';
import { lazy, Suspense, useState } from 'react';
import { licenseBanner } from './banner-state.ts';

// Fluent's message bar loads only when there is a banner to show.
const BannerView = lazy(() => import('./banner-view.tsx'));

export const BANNER_DISMISSED_KEY = 'bahi.licenseBannerDismissed';

/** Under the top bar; dismissed for the browser session (the same text stays dismissed). */
export function LicenseBanner({ now }: { now?: Date }) {
  const { license } = useSession();
  const banner = licenseBanner(license, now);
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem(BANNER_DISMISSED_KEY));
  if (!banner || dismissed === banner.text) return null;
  const dismiss = () => {
    sessionStorage.setItem(BANNER_DISMISSED_KEY, banner.text);
    setDismissed(banner.text);
  };
  return (
    <Suspense fallback={<div data-testid="license-banner">{banner.text}</div>}>
      <BannerView banner={banner} onDismiss={dismiss} />
    </Suspense>
  );
}
