// @vitest-environment happy-dom
// The Profiles page against a scripted console: when no profile is active (console.json cannot
// be read), the page says why above the list, in which no profile is marked active.
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfilesPage } from '../../renderer/profiles/ProfilesPage';
import { renderWithClient, scripted } from '../support/console-ui';

afterEach(() => {
  cleanup();
  delete window.consoleApi;
});

const entry = (id: string, processTasksOnStart: boolean, isActive = false) => ({
  metadata: { isActive, passwdSet: false, maskedFields: [], warnings: [], legacyActivate: [] },
  profile: { id, processTasksOnStart },
});

describe('ProfilesPage', () => {
  it('shows why no profile is active, and marks none', async () => {
    const why = 'no profile is active: /data/console.json is not valid JSON (Unexpected end of JSON input); activate a profile to choose the one this console runs';
    scripted({ 'profiles.list': () => ({ ok: true, data: { results: [entry('default', true), entry('standby', false)], total: 2, noActiveProfile: why } }) });
    renderWithClient(<ProfilesPage />);
    expect((await screen.findByRole('alert', { name: 'No active profile' })).textContent).toBe(why);
    const table = screen.getByRole('table', { name: 'Profiles' });
    expect(within(table).queryByText('Active')).toBeNull();
  });

  it('shows no such alert while a profile is active', async () => {
    scripted({ 'profiles.list': () => ({ ok: true, data: { results: [entry('default', true, true)], total: 1 } }) });
    renderWithClient(<ProfilesPage />);
    const table = await screen.findByRole('table', { name: 'Profiles' });
    expect(within(table).getByText('Active')).toBeTruthy();
    expect(screen.queryByRole('alert', { name: 'No active profile' })).toBeNull();
  });
});
