import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';

/** A call failure shown in place (spec section 8): the screen stays open. */
export function ErrorAlert({ text, title }: { text: string | null | undefined; title?: string }) {
  if (!text) return null;
  return (
    <MessageBar intent="error" role="alert" layout="multiline">
      <MessageBarBody>
        {title ? <MessageBarTitle>{title}</MessageBarTitle> : null}
        {text}
      </MessageBarBody>
    </MessageBar>
  );
}
