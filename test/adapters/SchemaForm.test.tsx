// @vitest-environment happy-dom
// The properties form generated from a package's propertiesSchema.json: the stub switch first,
// a field per property by type, secrets as password fields, nested objects, JSON for arrays,
// properties the schema does not describe kept, and the server's field errors under each field.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SchemaForm } from '../../renderer/adapters/SchemaForm';

afterEach(cleanup);

const schema = {
  type: 'object',
  properties: {
    host: { type: 'string', description: 'hostname of the server' },
    port: { type: 'integer', default: 443 },
    protocol: { type: 'string', enum: ['http', 'https'] },
    authentication: { type: 'object', properties: { username: { type: 'string' }, password: { type: 'string' } } },
    failover_codes: { type: 'array', items: { type: 'integer' } },
    stub: { type: 'boolean' },
  },
};

let last: Record<string, unknown> = {};
function Harness({ initial, errors }: { initial: Record<string, unknown>; errors?: Record<string, string> }) {
  const [value, setValue] = useState(initial);
  return <SchemaForm schema={schema} value={value} errors={errors} onChange={(next) => setValue((last = next))} />;
}

describe('SchemaForm', () => {
  it('puts the stub switch first and edits each property by its type, keeping unknown ones', () => {
    const { container } = render(<Harness initial={{ host: 'a', port: 443, stub: true, authentication: { username: 'op', password: '********' }, extra: 'kept' }} />);
    expect(container.querySelector('input')?.id).toBe('prop-stub');
    expect(screen.getByLabelText<HTMLInputElement>('stub').checked).toBe(true);
    expect(screen.getByLabelText<HTMLInputElement>('password').type).toBe('password');
    fireEvent.click(screen.getByLabelText('stub'));
    fireEvent.change(screen.getByLabelText('port'), { target: { value: '8443' } });
    fireEvent.change(screen.getByLabelText('protocol'), { target: { value: 'http' } });
    fireEvent.change(screen.getByLabelText('username'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('failover_codes'), { target: { value: '[500, 503]' } });
    expect(last).toEqual({ host: 'a', port: 8443, protocol: 'http', stub: false, authentication: { username: 'admin', password: '********' }, failover_codes: [500, 503], extra: 'kept' });
  });

  it("shows the server's error under the field it names, and JSON that does not parse yet", () => {
    render(<Harness initial={{ port: 1 }} errors={{ port: 'must be >= 443', 'authentication.username': 'must be string' }} />);
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['port: must be >= 443', 'authentication.username: must be string']);
    fireEvent.change(screen.getByLabelText('failover_codes'), { target: { value: '[500,' } });
    expect(screen.getByText(/not JSON yet/)).toBeTruthy();
  });
});
