import { ApiError } from '@bahi/ui';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { startLiveInvalidation } from './live-invalidation.ts';

/**
 * The one query cache of the app. This module is a module-federation singleton
 * ('@bahi/ui/screen'), so the shell's screens and every remote share it: the cities list
 * fetched by one screen is the one the next screen shows.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx will answer the same again; a network blip or 5xx gets one more try.
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 1,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
startLiveInvalidation(queryClient);

/** Wraps a screen (or a remote's routes) in the shared query cache. */
export function ScreenProviders(props: { children: ReactNode; client?: QueryClient }) {
  return <QueryClientProvider client={props.client ?? queryClient}>{props.children}</QueryClientProvider>;
}
