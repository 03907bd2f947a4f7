import { test, expect } from './fixtures';

test('an index dropped behind the console\'s back is reported, and running indexing from the tab restores it', async ({ consolePage: page, host }) => {
  const profile = host.state.runtime.config.profileId;
  // Behind the console's back: straight through the store, not through the API.
  await host.state.runtime.store.collection('jobs').dropIndex('status_1_metrics.start_time_-1');

  await page.evaluate((id) => (window.location.hash = `#/profiles/${id}/indexing`), profile);
  const table = page.getByRole('table', { name: 'Indexes per collection' });
  const jobs = table.getByRole('row', { name: 'jobs', exact: true });
  await expect(jobs).toContainText('Not indexed: 1 missing');
  await expect(table.getByRole('row', { name: 'tasks', exact: true })).toContainText('Indexed');

  await page.getByRole('button', { name: 'Details of jobs' }).click();
  await expect(page.getByRole('list', { name: 'Missing' })).toContainText('status_1_metrics.start_time_-1');

  await page.getByRole('button', { name: 'Run indexing on jobs' }).click();
  await expect(jobs.getByText('Indexed', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Indexes of jobs' })).toContainText('None: every declared index exists.');
  const names = (await host.state.runtime.store.collection('jobs').listIndexes()).map((i) => i.name);
  expect(names).toContain('status_1_metrics.start_time_-1');
});

test('a lease index an earlier version built whole is shown as one to re-create, and running indexing makes it partial', async ({ consolePage: page, host }) => {
  const profile = host.state.runtime.config.profileId;
  const tasks = host.state.runtime.store.collection('tasks');
  // As an earlier version built it: the same name and key, every task in it.
  await tasks.dropIndex('status_1_leaseUntil_1');
  await tasks.createIndex({ key: { status: 1, leaseUntil: 1 }, name: 'status_1_leaseUntil_1' });

  await page.evaluate((id) => (window.location.hash = `#/profiles/${id}/indexing`), profile);
  const table = page.getByRole('table', { name: 'Indexes per collection' });
  const row = table.getByRole('row', { name: 'tasks', exact: true });
  await expect(row).toContainText('Not indexed: 1 misnamed');
  await page.getByRole('button', { name: 'Details of tasks' }).click();
  await expect(page.getByRole('list', { name: 'Misnamed' })).toContainText(
    'status_1_leaseUntil_1 { status: 1, leaseUntil: 1 } partial {"leaseUntil":{"$exists":true}} exists without its partial filter; indexing drops and re-creates it',
  );

  await page.getByRole('button', { name: 'Run indexing on tasks' }).click();
  await expect(row.getByText('Indexed', { exact: true })).toBeVisible();
  const lease = (await tasks.listIndexes()).find((i) => i.name === 'status_1_leaseUntil_1');
  expect(lease?.partialFilterExpression).toEqual({ leaseUntil: { $exists: true } });
});
