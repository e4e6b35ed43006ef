/** What a remote's ./routes module exports by default: its routes under one base path. */
export type RemoteRoutesComponent = (props: { base: string }) => React.JSX.Element;
