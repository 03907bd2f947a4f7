// @vitest-environment happy-dom
// The shared components: ConfirmAction does nothing until confirmed (Escape and Back do nothing,
// focus returns to its button), Table sorts, selects, pages and says when it has nothing to list,
// and "/" focuses the page's search box unless the operator is typing.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { useState, type ReactNode } from 'react';
import { ConfirmAction } from '../../renderer/components/ConfirmAction';
import { sortRows, Table, type Column } from '../../renderer/components/Table';
import { matchesSearch, SearchBox } from '../../renderer/components/SearchBox';
import { Shortcuts } from '../../renderer/components/Shortcuts';

afterEach(cleanup);

const withQuery = (node: ReactNode) => render(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>);

describe('ConfirmAction', () => {
  const setup = () => {
    const action = vi.fn(async () => 'done');
    withQuery(
      <ConfirmAction label="Stop" ariaLabel="Stop example" title="Stop the adapter example?" confirmLabel="Yes, stop example" action={action} done={() => 'example stopped: Start brings it back.'}>
        <p>Tasks that call example fail.</p>
      </ConfirmAction>,
    );
    return { action, trigger: screen.getByRole('button', { name: 'Stop example' }) };
  };

  it('asks first: one click does nothing but ask, with focus on the way back', () => {
    const { action, trigger } = setup();
    trigger.focus();
    fireEvent.click(trigger);
    const dialog = screen.getByRole('dialog', { name: 'Stop the adapter example?' });
    expect(dialog.textContent).toContain('Tasks that call example fail.');
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Back' }));
    expect(action).not.toHaveBeenCalled();
  });

  it('Escape and Back close it with nothing done and focus back on the button', () => {
    const { action, trigger } = setup();
    trigger.focus();
    fireEvent.click(trigger);
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    fireEvent.click(trigger);
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(action).not.toHaveBeenCalled();
  });

  it('Yes does it once and says what happened and how to undo it', async () => {
    const { action, trigger } = setup();
    fireEvent.click(trigger);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, stop example' }));
    expect((await screen.findByRole('status')).textContent).toContain('example stopped: Start brings it back.');
    expect(action).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a refusal is said in the question, which stays open', async () => {
    withQuery(
      <ConfirmAction label="Delete" title="Delete x?" confirmLabel="Yes, delete" action={() => Promise.reject(new Error('x is in use'))}>
        <p>gone</p>
      </ConfirmAction>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete' }));
    expect((await screen.findByRole('alert')).textContent).toContain('x is in use');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});

interface Row {
  name: string;
  tasks: number;
}
const COLUMNS: Column<Row>[] = [
  { id: 'name', header: 'Name', sortValue: (r) => r.name, cell: (r) => r.name },
  { id: 'tasks', header: 'Tasks', sortValue: (r) => r.tasks, cell: (r) => r.tasks },
];
const names = () => screen.getAllByRole('row').slice(1).map((row) => row.firstElementChild?.textContent ?? '');

describe('Table', () => {
  it('sorts by a column both ways, stably, with aria-sort on its header', () => {
    render(<Table label="Workflows" rows={[{ name: 'b', tasks: 2 }, { name: 'a10', tasks: 1 }, { name: 'a9', tasks: 2 }]} columns={COLUMNS} rowKey={(r) => r.name} empty="none" initialSort={{ column: 'name', order: 'asc' }} />);
    expect(names()).toEqual(['a9', 'a10', 'b']);
    fireEvent.click(screen.getByRole('button', { name: /^Name/ }));
    expect(names()).toEqual(['b', 'a10', 'a9']);
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.click(screen.getByRole('button', { name: /^Tasks/ }));
    expect(names()).toEqual(['a10', 'b', 'a9']);
  });

  it('says why there is nothing to list instead of an empty table', () => {
    render(<Table label="Workflows" rows={[]} columns={COLUMNS} rowKey={(r) => r.name} empty="No workflow matches “x”." />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText('No workflow matches “x”.')).toBeTruthy();
  });

  it('pages past pageSize and selects the rows shown', () => {
    function Selecting() {
      const [selected, setSelected] = useState<Set<string>>(new Set());
      const rows = Array.from({ length: 25 }, (_v, i) => ({ name: `w${String(i).padStart(2, '0')}`, tasks: i }));
      return (
        <>
          <p>{selected.size} selected</p>
          <Table label="Workflows" rows={rows} columns={COLUMNS} rowKey={(r) => r.name} empty="none" pageSize={10} select={{ selected, onChange: setSelected, label: (key) => `Select ${key}` }} />
        </>
      );
    }
    render(<Selecting />);
    expect(screen.getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('1–10 of 25')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Select the workflows shown'));
    expect(screen.getByText('10 selected')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('21–25 of 25')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Select w22'));
    expect(screen.getByText('11 selected')).toBeTruthy();
  });

  it('sortRows keeps every row, in order by the key, equal keys in their first order', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ k: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }), i: fc.nat() })), fc.constantFrom<'asc' | 'desc'>('asc', 'desc'), (rows, order) => {
        const sorted = sortRows(rows, (r) => r.k, order);
        expect(sorted).toHaveLength(rows.length);
        expect(new Set(sorted)).toEqual(new Set(rows));
        const defined = sorted.filter((r) => r.k !== undefined);
        // Rows without a value go last, whatever the order.
        expect(sorted.slice(0, defined.length)).toEqual(defined);
        for (let n = 1; n < defined.length; n++) {
          const [a, b] = [defined[n - 1]!, defined[n]!];
          expect(order === 'asc' ? a.k! <= b.k! : a.k! >= b.k!).toBe(true);
          if (a.k === b.k) expect(rows.indexOf(a)).toBeLessThan(rows.indexOf(b));
        }
      }),
    );
  });
});

describe('SearchBox and the "/" shortcut', () => {
  function Page() {
    const [q, setQ] = useState('');
    return (
      <>
        <input aria-label="Other field" />
        <SearchBox label="Search workflows" value={q} onChange={setQ} />
        <Shortcuts />
      </>
    );
  }

  it('"/" focuses the search box, but is text in another field; "?" opens the shortcuts', async () => {
    render(<Page />);
    const other = screen.getByLabelText('Other field');
    other.focus();
    fireEvent.keyDown(other, { key: '/' });
    expect(document.activeElement).toBe(other);
    other.blur();
    fireEvent.keyDown(document.body, { key: '/' });
    expect(document.activeElement).toBe(screen.getByLabelText('Search workflows'));
    fireEvent.keyDown(document.body, { key: '?' });
    await waitFor(() => expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy());
  });

  it('matches every word, in any of the texts, whatever the case', () => {
    expect(matchesSearch('deploy ROUTER', 'Deploy router', undefined)).toBe(true);
    expect(matchesSearch('deploy switch', 'Deploy router', 'core')).toBe(false);
    expect(matchesSearch('  ', 'anything')).toBe(true);
  });
});
