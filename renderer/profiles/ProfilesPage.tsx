// The Profiles page: every profile of this console (one per server: primary, DR standby, lab),
// the active one marked; create, import, and the selected profile's detail.
import { useState } from 'react';
import { profileTemplate } from '../../core/contract/profiles';
import { ApiError, call } from '../api/client';
import { readJsonFile, serverFieldErrors, useProfileMutation, useProfiles, type Properties } from './api';
import type { Json } from './fields';
import { ProfileDetail } from './ProfileDetail';
import { ProfileForm } from './ProfileForm';
import { go, profileHref, useProfilesRoute } from './route';
import { Alert } from '../shell/Alert';

export function ProfilesPage() {
  const route = useProfilesRoute();
  return (
    <section className="profiles-page">
      <h1>Profiles</h1>
      <div className="profiles-layout">
        <ProfileList selected={route.id} />
        <div>
          {route.id === 'new' && <CreateProfile />}
          {route.id && route.id !== 'new' && <ProfileDetail id={route.id} tab={route.tab} />}
          {!route.id && <p className="muted">Select a profile to see and edit its properties.</p>}
        </div>
      </div>
    </section>
  );
}

function ProfileList({ selected }: { selected?: string }) {
  const list = useProfiles();
  const [importError, setImportError] = useState<{ message: string; issues: { path: string; message: string }[] }>();
  /** A file whose id is taken, waiting for the operator to give it another one. */
  const [taken, setTaken] = useState<{ name: string; json: Json; newId: string }>();
  const importFile = useProfileMutation((json: unknown) => call('profiles.import', { body: json as Properties }));

  const send = async (name: string, json: unknown) => {
    setImportError(undefined);
    setTaken(undefined);
    try {
      const created = await importFile.mutateAsync(json);
      go(profileHref(created.profile.id));
    } catch (error) {
      const issues = error instanceof ApiError ? (error.body.issues ?? []) : [];
      setImportError({ message: `Cannot import ${name}: ${(error as Error).message}`, issues });
      if (error instanceof ApiError && error.statusCode === 409 && json && typeof json === 'object') {
        setTaken({ name, json: json as Json, newId: `${String((json as Json).id)}-imported` });
      }
    }
  };

  const onFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    try {
      await send(file.name, await readJsonFile(file));
    } catch (error) {
      setImportError({ message: (error as Error).message, issues: [] });
    }
  };

  return (
    <div className="profile-list">
      <div className="form-actions">
        <a className="button primary" href="#/profiles/new">
          New profile
        </a>
        <label className="button">
          Import…
          <input
            type="file"
            accept=".json,application/json"
            aria-label="Import a properties.json file"
            className="visually-hidden"
            onChange={(event) => void onFile(event.currentTarget)}
          />
        </label>
      </div>
      {importError && (
        <Alert as="div">
          <p>{importError.message}</p>
          {importError.issues.length > 0 && (
            <ul>
              {importError.issues.map((issue) => (
                <li key={issue.path}>
                  {issue.path.replace(/^body\.?/, '') || '(file)'}: {issue.message}
                </li>
              ))}
            </ul>
          )}
          {taken && (
            <form
              className="form-actions"
              onSubmit={(event) => {
                event.preventDefault();
                void send(taken.name, { ...taken.json, id: taken.newId });
              }}
            >
              <label>
                Import as{' '}
                <input aria-label="Import as id" value={taken.newId} onChange={(e) => setTaken({ ...taken, newId: e.target.value })} />
              </label>
              <button type="submit">Import</button>
            </form>
          )}
        </Alert>
      )}
      {list.isPending && <p>Loading profiles…</p>}
      {list.isError && (
        <Alert>
          Cannot read the profiles: {list.error.message}
        </Alert>
      )}
      {list.data?.noActiveProfile && (
        <Alert look="error-banner" label="No active profile">
          {list.data.noActiveProfile}
        </Alert>
      )}
      {list.data && list.data.total === 0 && <p className="muted">No profiles yet.</p>}
      {list.data && list.data.total > 0 && (
        <table aria-label="Profiles">
          <thead>
            <tr>
              <th>Profile</th>
              <th>Tasks at startup</th>
              <th>Store</th>
            </tr>
          </thead>
          <tbody>
            {list.data.results.map(({ profile, metadata }) => {
              const url = (profile.mongoProps as { url?: string } | undefined)?.url;
              return (
                <tr key={profile.id} aria-current={profile.id === selected ? 'true' : undefined} className={profile.id === selected ? 'selected' : undefined}>
                  <td>
                    <a href={profileHref(profile.id)}>{profile.id}</a>{' '}
                    {metadata.isActive && <span className="badge good">Active</span>}
                    {metadata.warnings.length > 0 && (
                      <span className="badge warn" title={metadata.warnings.join('\n')}>
                        {metadata.warnings.length} warning{metadata.warnings.length > 1 ? 's' : ''}
                      </span>
                    )}
                    {typeof profile.serverName === 'string' && profile.serverName && <div className="muted">{profile.serverName}</div>}
                  </td>
                  <td>{profile.processTasksOnStart === false ? 'no' : profile.processTasksOnStart === true ? 'yes' : 'yes (not set)'}</td>
                  <td>{url ? 'MongoDB' : 'embedded'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}

function CreateProfile() {
  const create = useProfileMutation((body: Json) => call('profiles.create', { body: body as Properties }));
  return (
    <article aria-label="New profile">
      <h2>New profile</h2>
      <p className="muted">Starts from a template: the embedded store, working tasks at startup.</p>
      <ProfileForm
        initial={profileTemplate('')}
        mode="create"
        submitLabel="Create"
        busy={create.isPending}
        serverErrors={serverFieldErrors(create.error)}
        serverMessage={create.isError ? `Not created: ${create.error.message}` : undefined}
        onSubmit={(draft) => create.mutate(draft, { onSuccess: (entry) => go(profileHref(entry.profile.id)) })}
        onCancel={() => go('#/profiles')}
      />
    </article>
  );
}
