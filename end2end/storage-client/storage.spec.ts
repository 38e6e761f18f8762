import { StorageApiError, StorageClient } from '@supabase/storage-js';

import { expect, signUpConfirmed, sleep, test } from '../auth-client/support';

// The official storage client (@supabase/storage-js), unmodified, against the storage service
// area (`/storage/v1`, crates/server/src/storage), from Node as an app's server code would call
// it. Each team is one bucket, named by the team's public id.

/** A signed-in person's storage client and the bucket of a new team of theirs. */
async function teamBucket(site: string, token: string, name: string): Promise<{ storage: StorageClient; bucket: string }> {
  const made = await fetch(`${site}/api/v2/teams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(made.status).toBe(201);
  const { team } = (await made.json()) as { team: { public_id: string } };
  const storage = new StorageClient(`${site}/storage/v1`, { authorization: `Bearer ${token}`, apikey: 'bobbin' });
  return { storage, bucket: team.public_id };
}

/** A small stand-in for a design file: its marker, padded. */
function file(marker: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(new ArrayBuffer(1_024)).fill(32);
  bytes.set(new TextEncoder().encode(`LA:${marker}`));
  return bytes;
}

test('storage-js uploads, lists, downloads, signs, moves, copies and removes a team’s files', async ({ newClient, mailbox, site }) => {
  const { session } = await signUpConfirmed(newClient(), mailbox, site);
  const { storage, bucket } = await teamBucket(site, session.access_token, 'Loom & Co');
  const files = storage.from(bucket);

  await test.step('the team is a bucket of its own', async () => {
    const { data, error } = await storage.getBucket(bucket);
    expect(error).toBeNull();
    expect(data).toMatchObject({ id: bucket, name: bucket, public: false });
    expect((await storage.listBuckets()).data?.map((listed) => listed.id)).toEqual([bucket]);
  });

  await test.step('upload: bytes, and a Blob as a form; a key taken is refused without upsert', async () => {
    const raw = await files.upload('logos/rose.dst', file('rose'), { contentType: 'application/octet-stream' });
    expect(raw.error).toBeNull();
    expect(raw.data).toMatchObject({ path: 'logos/rose.dst', fullPath: `${bucket}/logos/rose.dst` });
    const blob = await files.upload('logos/tulip.pes', new Blob([file('tulip')], { type: 'application/octet-stream' }), {
      metadata: { customer: 'Acme' },
    });
    expect(blob.error).toBeNull();
    const again = await files.upload('logos/rose.dst', file('another rose'));
    expect(again.error).toBeInstanceOf(StorageApiError);
    expect(again.error).toMatchObject({ statusCode: '409', code: 'KeyAlreadyExists' });
    expect((await files.upload('logos/rose.dst', file('rose'), { upsert: true })).error).toBeNull();
  });

  await test.step('download and info', async () => {
    const { data, error } = await files.download('logos/rose.dst');
    expect(error).toBeNull();
    expect(new Uint8Array(await (data as Blob).arrayBuffer())).toEqual(file('rose'));
    const info = await files.info('logos/tulip.pes');
    expect(info.error).toBeNull();
    expect(info.data).toMatchObject({ name: 'logos/tulip.pes', size: 1_024, metadata: { customer: 'Acme' } });
    expect((await files.exists('logos/tulip.pes')).data).toBe(true);
    expect((await files.exists('logos/missing.pes')).data).toBe(false);
    const missing = await files.download('logos/missing.pes');
    expect(missing.error).toMatchObject({ statusCode: '404', code: 'NoSuchKey' });
  });

  await test.step('list: a prefix is a folder, 100 by default, by name, with search and offset', async () => {
    for (let start = 0; start < 105; start += 15) {
      const batch = Array.from({ length: Math.min(15, 105 - start) }, (_, offset) => start + offset);
      const uploads = await Promise.all(batch.map((n) => files.upload(`batch/design-${String(n).padStart(3, '0')}.dst`, file(`n${n}`))));
      expect(uploads.map((upload) => upload.error)).toEqual(batch.map(() => null));
    }
    const top = await files.list();
    expect(top.error).toBeNull();
    expect(top.data?.map((entry) => [entry.name, entry.id])).toEqual([
      ['batch', null],
      ['logos', null],
    ]);
    const first = await files.list('batch');
    expect(first.data).toHaveLength(100);
    expect(first.data?.[0]?.name).toBe('design-000.dst');
    expect(first.data?.[99]?.name).toBe('design-099.dst');
    expect(first.data?.[0]?.metadata).toMatchObject({ size: 1_024, mimetype: 'text/plain;charset=UTF-8' });
    const rest = await files.list('batch', { offset: 100 });
    expect(rest.data?.map((entry) => entry.name)).toEqual([
      'design-100.dst',
      'design-101.dst',
      'design-102.dst',
      'design-103.dst',
      'design-104.dst',
    ]);
    const newest = await files.list('batch', { limit: 2, sortBy: { column: 'name', order: 'desc' } });
    expect(newest.data?.map((entry) => entry.name)).toEqual(['design-104.dst', 'design-103.dst']);
    const searched = await files.list('logos', { search: 'TUL' });
    expect(searched.data?.map((entry) => entry.name)).toEqual(['tulip.pes']);
  });

  await test.step('signed URLs work without a session, then expire', async () => {
    const signed = await files.createSignedUrl('logos/rose.dst', 2);
    expect(signed.error).toBeNull();
    const url = signed.data?.signedUrl as string;
    expect(url.startsWith(`${site}/storage/v1/object/sign/${bucket}/logos/rose.dst?token=`)).toBe(true);
    const fetched = await fetch(url);
    expect(fetched.status).toBe(200);
    expect(new Uint8Array(await fetched.arrayBuffer())).toEqual(file('rose'));
    const many = await files.createSignedUrls(['logos/rose.dst', 'logos/missing.pes'], 60);
    expect(many.data?.map((entry) => [entry.path, entry.error, Boolean(entry.signedUrl)])).toEqual([
      ['logos/rose.dst', null, true],
      ['logos/missing.pes', 'Either the object does not exist or you do not have access to it', false],
    ]);
    await sleep(3_100);
    const late = await fetch(url);
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ statusCode: '400', code: 'InvalidJWT' });
  });

  await test.step('move, copy and remove', async () => {
    expect((await files.move('logos/tulip.pes', 'archive/tulip.pes')).error).toBeNull();
    expect((await files.exists('logos/tulip.pes')).data).toBe(false);
    const copied = await files.copy('archive/tulip.pes', 'logos/tulip-copy.pes');
    expect(copied.error).toBeNull();
    expect(copied.data).toEqual({ path: `${bucket}/logos/tulip-copy.pes` });
    const removed = await files.remove(['archive/tulip.pes', 'logos/tulip-copy.pes', 'logos/never.pes']);
    expect(removed.error).toBeNull();
    expect(removed.data?.map((entry) => entry.name).sort()).toEqual(['archive/tulip.pes', 'logos/tulip-copy.pes']);
    expect((await files.list('logos')).data?.map((entry) => entry.name)).toEqual(['rose.dst']);
  });
});

test('another team’s bucket answers as one that does not exist', async ({ newClient, mailbox, site }) => {
  const owner = await signUpConfirmed(newClient(), mailbox, site);
  const { storage, bucket } = await teamBucket(site, owner.session.access_token, 'Owner’s shop');
  expect((await storage.from(bucket).upload('secret.dst', file('secret'))).error).toBeNull();
  const stranger = await signUpConfirmed(newClient(), mailbox, site);
  const theirs = (await teamBucket(site, stranger.session.access_token, 'Stranger’s shop')).storage;

  const foreign = await theirs.from(bucket).download('secret.dst');
  const missing = await theirs.from('AAAAAAAAAAAAAAAA').download('secret.dst');
  expect(foreign.error).toMatchObject({ statusCode: '404', code: 'NoSuchBucket' });
  expect(missing.error).toMatchObject({ statusCode: '404', code: 'NoSuchBucket', message: foreign.error?.message });
  expect((await theirs.from(bucket).list()).error).toMatchObject({ code: 'NoSuchBucket' });
  expect((await theirs.getBucket(bucket)).error).toMatchObject({ code: 'NoSuchBucket' });
});
