import { Button, MessageBar, MessageBarActions, MessageBarBody } from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons';
import type { Banner } from './banner-state.ts';

export default function BannerView({ banner, onDismiss }: { banner: Banner; onDismiss(): void }) {
  return (
    <MessageBar intent={banner.intent} layout="multiline" data-testid="license-banner">
      <MessageBarBody>{banner.text}</MessageBarBody>
      <MessageBarActions
        containerAction={
          <Button
            appearance="transparent"
            aria-label="Dismiss"
            icon={<DismissRegular />}
            onClick={onDismiss}
          />
        }
      />
    </MessageBar>
  );
}
