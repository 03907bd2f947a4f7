import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from './shell/App';
import { captureTokenFromUrl } from './api/token';
import { ApiError, TIMED_OUT } from './api/client';
import './styles.css';

captureTokenFromUrl();
// A refusal (4xx: no such job, a bad filter) is shown at once, and so is a call that waited out its
// timeout; a refused connection is tried once more.
const retry = (failures: number, error: Error) =>
  !(error instanceof ApiError && ((error.statusCode >= 400 && error.statusCode < 500) || error.body.error === TIMED_OUT)) && failures < 1;
const queryClient = new QueryClient({ defaultOptions: { queries: { retry, refetchOnWindowFocus: false } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
