import { MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import type { ErrorAlertProps } from './error-alert.tsx';

export default function ErrorAlertImpl({ text, title, action }: ErrorAlertProps) {
  return (
    <MessageBar intent="error" role="alert" layout="multiline">
      <MessageBarBody>
        {title ? <MessageBarTitle>{title}</MessageBarTitle> : null}
        {text}
      </MessageBarBody>
      {action ? <MessageBarActions>{action}</MessageBarActions> : null}
    </MessageBar>
  );
}
