// @vitest-environment happy-dom
// The properties form: inline errors from the model, server errors at their field, and a
// submit that keeps the fields the form does not show and the password mask.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProfileForm } from '../../renderer/profiles/ProfileForm';

afterEach(cleanup);

const stored = {
  id: 'site-b',
  serverName: 'site-b-01',
  processTasksOnStart: true,
  mongoProps: { db: 'pronghorn', credentials: { user: 'itential', passwd: '********', dbAuth: true }, replicaSet: 'rs0' },
  vaultProps: { url: 'https://vault', enabled: false },
};

describe('ProfileForm', () => {
  it('shows a field error as soon as the field is wrong, and clears it when fixed', () => {
    render(<ProfileForm initial={stored} mode="edit" passwdSet submitLabel="Save" onSubmit={() => undefined} />);
    const url = screen.getByLabelText('MongoDB URL');
    fireEvent.change(url, { target: { value: 'db.example:27017' } });
    expect(screen.getByRole('alert').textContent).toBe('must be a mongodb:// or mongodb+srv:// URL');
    expect(url.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(url, { target: { value: 'mongodb://db.example:27017' } });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('does not submit a wrong form, and submits the whole file with the unknown fields and the mask', () => {
    const onSubmit = vi.fn();
    render(<ProfileForm initial={stored} mode="edit" passwdSet submitLabel="Save" onSubmit={onSubmit} />);
    fireEvent.change(screen.getByLabelText('MongoDB URL'), { target: { value: 'http://x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('MongoDB URL'), { target: { value: '' } });
    fireEvent.click(screen.getByLabelText('Work tasks at startup (processTasksOnStart)'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith({ ...stored, processTasksOnStart: false });
    expect(screen.getByText(/A password is stored; it is never shown/)).toBeTruthy();
    expect(screen.getByText(/Other fields of this file, kept as they are/).textContent).toContain('vaultProps');
  });

  it("shows the server's error at its field until the field is changed", () => {
    render(
      <ProfileForm
        initial={stored}
        mode="edit"
        submitLabel="Save"
        serverErrors={{ 'mongoProps.db': 'refused by the server', 'vaultProps.url': 'not reachable' }}
        onSubmit={() => undefined}
      />,
    );
    expect(screen.getByText('refused by the server')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Other errors' }).textContent).toContain('vaultProps.url: not reachable');
    fireEvent.change(screen.getByLabelText('Database'), { target: { value: 'automation' } });
    expect(screen.queryByText('refused by the server')).toBeNull();
  });

  it('keeps the id of a saved profile read-only', () => {
    render(<ProfileForm initial={stored} mode="edit" submitLabel="Save" onSubmit={() => undefined} />);
    expect(screen.getByLabelText<HTMLInputElement>('Profile id').readOnly).toBe(true);
  });
});
