import { useSession } from '@bahi/ui';
import { Button, MessageBar, MessageBarActions, MessageBarBody } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { licenseBanner } from './banner-state.ts';

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
    <MessageBar intent={banner.intent} layout="multiline" data-testid="license-banner">
      <MessageBarBody>{banner.text}</MessageBarBody>
      <MessageBarActions
        containerAction={
          <Button appearance="transparent" aria-label="Dismiss" icon={<DismissRegular />} onClick={dismiss} />
        }
      />
    </MessageBar>
  );
}
