// One profile: its warnings, its actions (activate, clone, export, delete, each asked first
// when it changes something) and its tabs: Properties, then, for the ACTIVE profile, the tabs
// of active-profile-tabs.tsx, then Raw JSON.
import { useState } from 'react';
import type { ProfileEntry } from '../../core/contract/profiles';
import { ApiError, call } from '../api/client';
import { TestConnectionButton } from '../store/TestConnectionButton';
import { activeProfileTabs } from './active-profile-tabs';
import { downloadExport, serverFieldErrors, useProfile, useProfileMutation } from './api';
import { ConfirmDialog } from '../components/ConfirmDialog';
import type { Json } from './fields';
import { LegacyActivateBanner } from './LegacyActivateBanner';
import { ProfileForm } from './ProfileForm';
import { RawJsonTab } from './RawJsonTab';
import { go, profileHref } from './route';
import { Alert } from '../shell/Alert';

export function ProfileDetail({ id, tab }: { id: string; tab: string }) {
  const query = useProfile(id);
  if (query.isPending) return <p>Loading profile {id}…</p>;
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.statusCode === 404;
    return (
      <Alert>
        {missing ? `There is no profile "${id}".` : `Cannot read profile ${id}: ${query.error.message}`}
      </Alert>
    );
  }
  return <ProfileView key={id} entry={query.data} tab={tab} />;
}

function ProfileView({ entry, tab }: { entry: ProfileEntry; tab: string }) {
  const { profile, metadata } = entry;
  const id = profile.id;
  const tabs = [
    { id: 'properties', title: 'Properties' },
    ...(metadata.isActive ? activeProfileTabs.map((t) => ({ id: t.id, title: t.title })) : []),
    { id: 'json', title: 'Raw JSON' },
  ];
  const current = tabs.some((t) => t.id === tab) ? tab : 'properties';
  // The legacy `activate` warnings are shown in their own banner, with the way to migrate.
  const isLegacy = (warning: string) => metadata.legacyActivate.some((f) => warning.startsWith(f.message));
  const legacyWarnings = metadata.warnings.filter(isLegacy);
  const otherWarnings = metadata.warnings.filter((w) => !isLegacy(w));

  return (
    <article className="profile-detail" aria-label={`Profile ${id}`}>
      <header className="profile-header">
        <h2>
          {id} {metadata.isActive && <span className="badge good">Active</span>}
        </h2>
        <ProfileActions entry={entry} />
      </header>
      {otherWarnings.length > 0 && (
        <div className="banner" role="region" aria-label="Warnings">
          <ul>
            {otherWarnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      )}
      <LegacyActivateBanner id={id} findings={metadata.legacyActivate} warnings={legacyWarnings} />
      <nav className="tabs" role="tablist" aria-label={`Tabs of profile ${id}`}>
        {tabs.map((t) => (
          <a key={t.id} role="tab" href={profileHref(id, t.id)} aria-selected={t.id === current}>
            {t.title}
          </a>
        ))}
      </nav>
      <div role="tabpanel" aria-label={tabs.find((t) => t.id === current)!.title}>
        {current === 'properties' && <PropertiesTab entry={entry} />}
        {current === 'json' && <RawJsonTab key={JSON.stringify(profile)} id={id} profile={profile} />}
        {activeProfileTabs.find((t) => t.id === current)?.render()}
      </div>
    </article>
  );
}

function PropertiesTab({ entry }: { entry: ProfileEntry }) {
  const id = entry.profile.id;
  const save = useProfileMutation((body: Json) => call('profiles.update', { params: { id }, body: body }));
  return (
    <>
      <p className="profile-connection">
        <TestConnectionButton profileId={id} /> <span className="muted">(the store as saved)</span>
      </p>
      {save.isSuccess && (
        <p className="good" role="status">
          Saved. The previous version is kept as properties.json.bak.
        </p>
      )}
      <ProfileForm
        key={JSON.stringify(entry.profile)}
        initial={entry.profile}
        mode="edit"
        passwdSet={entry.metadata.passwdSet}
        submitLabel="Save"
        busy={save.isPending}
        serverErrors={serverFieldErrors(save.error)}
        serverMessage={save.isError ? `Not saved: ${save.error.message}` : undefined}
        onSubmit={(draft) => save.mutate(draft)}
      />
    </>
  );
}

type Asking = 'activate' | 'delete' | 'clone' | undefined;

function ProfileActions({ entry }: { entry: ProfileEntry }) {
  const id = entry.profile.id;
  const [asking, setAsking] = useState<Asking>();
  const [cloneId, setCloneId] = useState(`${id}-copy`);
  const [exportError, setExportError] = useState<string>();
  const activate = useProfileMutation(() => call('profiles.activate', { params: { id } }), { everything: true });
  const remove = useProfileMutation(() => call('profiles.delete', { params: { id } }));
  const clone = useProfileMutation((newId: string) => call('profiles.clone', { params: { id }, body: { id: newId } }));
  const close = () => {
    setAsking(undefined);
    activate.reset();
    remove.reset();
    clone.reset();
  };
  const works = entry.profile.processTasksOnStart !== false;
  const mongoUrl = (entry.profile.mongoProps as { url?: string } | undefined)?.url;

  return (
    <div className="profile-actions">
      {!entry.metadata.isActive && (
        <button className="primary" onClick={() => setAsking('activate')}>
          Activate…
        </button>
      )}
      <button onClick={() => setAsking('clone')}>Clone…</button>
      <button
        onClick={() => {
          setExportError(undefined);
          downloadExport(id).catch((error: Error) => setExportError(`Cannot export: ${error.message}`));
        }}
      >
        Export
      </button>
      <button
        disabled={entry.metadata.isActive}
        title={entry.metadata.isActive ? 'The active profile cannot be deleted: activate another one first' : undefined}
        onClick={() => setAsking('delete')}
      >
        Delete…
      </button>
      {exportError && (
        <Alert as="span">
          {exportError}
        </Alert>
      )}
      {asking === 'activate' && (
        <ConfirmDialog
          title={`Activate profile ${id}?`}
          confirmLabel="Activate"
          busy={activate.isPending}
          error={activate.isError ? activate.error.message : undefined}
          onCancel={close}
          onConfirm={() => activate.mutate(undefined, { onSuccess: close })}
        >
          <p>
            The console closes the running profile (running tasks finish or are handed back) and opens {id}: its store (
            {mongoUrl ? 'MongoDB' : 'embedded'}), and its task worker {works ? 'starts' : 'stays stopped'} (processTasksOnStart ={' '}
            {String(entry.profile.processTasksOnStart ?? 'not set')}). No restart is needed.
          </p>
        </ConfirmDialog>
      )}
      {asking === 'delete' && (
        <ConfirmDialog
          title={`Delete profile ${id}?`}
          confirmLabel="Delete"
          danger
          busy={remove.isPending}
          error={remove.isError ? remove.error.message : undefined}
          onCancel={close}
          onConfirm={() =>
            remove.mutate(undefined, {
              onSuccess: () => {
                close();
                go('#/profiles');
              },
            })
          }
        >
          <p>Its folder (with its embedded database) is moved aside to deleted-profiles in the data directory.</p>
        </ConfirmDialog>
      )}
      {asking === 'clone' && (
        <ConfirmDialog
          title={`Clone profile ${id}`}
          confirmLabel="Clone"
          busy={clone.isPending}
          error={clone.isError ? (serverFieldErrors(clone.error).id ?? clone.error.message) : undefined}
          onCancel={close}
          onConfirm={() =>
            clone.mutate(cloneId, {
              onSuccess: (created) => {
                close();
                go(profileHref(created.profile.id));
              },
            })
          }
        >
          <label>
            Id of the copy <input value={cloneId} onChange={(event) => setCloneId(event.target.value)} aria-label="Id of the copy" />
          </label>
          <p className="muted">The copy has the same properties and passwords.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
