// The console's areas, in navigation order. Each capability adds its page here.
import type { ReactNode } from 'react';
import { OverviewPage } from '../overview/OverviewPage';

export interface Area {
  id: string;
  title: string;
  render: () => ReactNode;
}

export const areas: Area[] = [{ id: 'overview', title: 'Overview', render: () => <OverviewPage /> }];
