// What the MongoDB adapter says when it cannot work: where it tried, what
// failed, and never the password.
import { describe, expect, it } from 'vitest';
import { MongoServerError } from 'mongodb';
import { openMongoStore } from '../../core/store/mongodb/store';
import { openStore } from '../../core/store/open';
import { rewriteMongoError } from '../../core/store/mongodb/errors';
import { mongoSettings } from '../../core/store/mongodb/settings';
import { StoreError } from '../../core/store/errors';

const PASSWORD = 'Sup3r-s3cret!';

describe('MongoDB adapter errors', () => {
  it('names the host, the timeout and the cause when nothing listens (127.0.0.1:1)', async () => {
    const store = await openStore('/nonexistent', {
      id: 'dr',
      mongoProps: { url: 'mongodb://127.0.0.1:1/?directConnection=true', db: 'pronghorn', credentials: { user: 'itential', passwd: PASSWORD, dbAuth: true } },
    });
    expect(store.kind).toBe('mongodb');
    expect(store.location).toBe('MongoDB at 127.0.0.1:1 (db pronghorn)');
    const error = await store.ping().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).reason).toBe('unreachable');
    expect((error as Error).message).toBe('cannot reach MongoDB at 127.0.0.1:1 within 5 s: connection refused');
    const write = await store.collection('tasks').insertOne({ a: 1 }).catch((e: unknown) => e);
    expect((write as Error).message).toBe('cannot reach MongoDB at 127.0.0.1:1 within 5 s: connection refused');
    await store.close();
  }, 20_000);

  it('never prints a password given in the URL', async () => {
    const store = openMongoStore({ url: `mongodb://itential:${encodeURIComponent(PASSWORD)}@127.0.0.1:1/pronghorn` }, { timeoutMs: 500 });
    expect(store.location).toBe('MongoDB at 127.0.0.1:1 (db pronghorn)');
    const error = (await store.ping().catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^cannot reach MongoDB at 127\.0\.0\.1:1 within 0\.5 s/);
    expect(error.message).not.toContain(PASSWORD);
    expect(error.message).not.toContain(encodeURIComponent(PASSWORD));
    expect(JSON.stringify(error)).not.toContain(PASSWORD);
    await store.close();
  });

  it('says which user failed to authenticate on which db', () => {
    const settings = mongoSettings({ url: 'mongodb://db1.example:27017', db: 'pronghorn', credentials: { user: 'itential', passwd: PASSWORD, dbAuth: true } });
    const driver = new MongoServerError({ ok: 0, code: 18, codeName: 'AuthenticationFailed', errmsg: `Authentication failed (pwd ${PASSWORD})` });
    const error = rewriteMongoError(driver, settings);
    expect(error.reason).toBe('auth');
    expect(error.message).toBe('authentication failed for user itential on db pronghorn');
  });

  it('authenticates against admin unless dbAuth says the user lives in the profile db', () => {
    const settings = mongoSettings({ url: 'mongodb://db1.example', db: 'pronghorn', credentials: { user: 'ops', passwd: PASSWORD } });
    expect(settings.authSource).toBe('admin');
    expect(settings.hosts).toBe('db1.example:27017');
    expect(rewriteMongoError(new MongoServerError({ code: 18, errmsg: 'Authentication failed.' }), settings).message).toBe(
      'authentication failed for user ops on db admin',
    );
  });

  it('removes the password from any other message', () => {
    const settings = mongoSettings({ url: 'mongodb://db1.example:27017,db2.example:27018/?replicaSet=rs0', db: 'pronghorn', credentials: { user: 'u', passwd: PASSWORD } });
    expect(settings.hosts).toBe('db1.example:27017,db2.example:27018');
    const error = rewriteMongoError(new Error(`weird failure mentioning ${PASSWORD} and mongodb://u:${PASSWORD}@db1`), settings);
    expect(error.message).not.toContain(PASSWORD);
    expect(error.message).toContain('MongoDB at db1.example:27017,db2.example:27018 (db pronghorn)');
  });

  it('passes TLS settings to the driver', () => {
    const settings = mongoSettings({ url: 'mongodb://db1.example', ssl: { enabled: true, acceptInvalidCerts: true, sslCA: '/etc/ssl/ca.pem' } });
    expect(settings.options).toMatchObject({ tls: true, tlsAllowInvalidCertificates: true, tlsCAFile: '/etc/ssl/ca.pem', serverSelectionTimeoutMS: 5000 });
  });

  it('exists with a malformed URL, and says what is wrong at each call', async () => {
    const store = openMongoStore({ url: 'mongodb://' });
    await expect(store.ping()).rejects.toThrow(/mongoProps\.url is not a usable MongoDB URL/);
    await store.close();
  });
});
