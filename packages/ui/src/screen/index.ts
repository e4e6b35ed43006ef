// '@bahi/ui/screen': the foundation every feature screen stands on (docs/frontend.md). A
// module-federation singleton of its own, loaded with the first screen that needs it, so the
// shell's first page does not carry TanStack Query. Forms are '@bahi/ui/form'.
export {
  keepPreviousData,
  type QueryKey,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
export * from './amount.tsx';
export * from './books-close.ts';
export * from './confirm-delete.ts';
export * from './date-input.tsx';
export * from './date-text.ts';
export * from './decimal-text.ts';
export * from './entity-picker.tsx';
export * from './list-controls.tsx';
export * from './live-invalidation.ts';
export * from './moment-input.tsx';
export * from './money-post.ts';
export * from './parties.ts';
export * from './query-client.tsx';
export * from './server-errors.ts';
export * from './typed-input.tsx';
