// Submitted files benchmark (`npm run bench:files`), against a real `verbatim serve` process on
// PGlite: resumable upload throughput of a 500 MB file with the server's memory sampled
// throughout, time from upload complete to transcript for the English dev recordings, jobs per
// minute with 2 workers, and webhook deliveries per second to a local receiver. Options:
// BENCH_UPLOAD_MB (500), BENCH_CHUNK_MB (8), BENCH_WEBHOOKS (200), BENCH_MODEL_EN (tiny.en-q8_0).
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SubmittedFile, TranscriptJob } from '@verbatim/contracts';
import { readManifest, sharedModelsDir, wordErrorRate } from '@verbatim/speech/test-support';
import { HttpCustomer, startWebhookReceiver } from '../apps/server/src/test-support/files.js';
import { serverEnv, startServerProcess } from '../apps/server/src/test-support/server-process.js';
import { createAccount, defaultPassword } from '../apps/server/src/test-support/sign-in.js';
import { startTestRuntime } from '../apps/server/src/test-support/test-runtime.js';

const uploadMb = Number(process.env.BENCH_UPLOAD_MB ?? 500);
const chunkMb = Number(process.env.BENCH_CHUNK_MB ?? 8);
const webhookCount = Number(process.env.BENCH_WEBHOOKS ?? 200);
const modelEn = process.env.BENCH_MODEL_EN ?? 'tiny.en-q8_0';
const mib = 1024 * 1024;

/** Chunk `index` of the synthetic upload: the same bytes every time, without holding the file. */
function syntheticChunk(index: number, bytes: number): Buffer {
  const chunk = Buffer.alloc(bytes);
  let state = (index + 1) * 2654435761;
  for (let offset = 0; offset + 4 <= bytes; offset += 4) {
    state = (state * 1103515245 + 12345) >>> 0;
    chunk.writeUInt32LE(state, offset);
  }
  return chunk;
}

/** Resident and peak memory of a process, in MiB, from /proc. */
async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

async function waitDone(client: HttpCustomer, fileId: string, timeoutMs = 600_000): Promise<SubmittedFile> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    const file = await client.json<SubmittedFile>('GET', `/files/third-party/${fileId}`);
    if (file.transcriptStatus === 'done' || file.transcriptStatus === 'processing_failed') return file;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`file ${fileId} not finished in time`);
}

async function main() {
  // The upload's SHA-1 first, so that the server idles through none of it.
  const chunkBytes = chunkMb * mib;
  const size = uploadMb * mib;
  const chunks = Math.ceil(size / chunkBytes);
  const chunkOf = (index: number) => syntheticChunk(index, Math.min(chunkBytes, size - index * chunkBytes));
  const hash = createHash('sha1');
  for (let index = 0; index < chunks; index++) hash.update(chunkOf(index));
  const uploadSha1 = hash.digest('hex');
  const folder = await mkdtemp(path.join(tmpdir(), 'verbatim-bench-files-'));
  const receiver = await startWebhookReceiver();
  const setup = await startTestRuntime({
    adjust: (config) => {
      config.database = { kind: 'pglite', directory: path.join(folder, 'pglite') };
    },
  });
  const account = await createAccount(setup);
  await setup.close();
  const server = await startServerProcess(
    serverEnv(folder, {
      SPEECH_MODELS_DIR: sharedModelsDir,
      SPEECH_MODEL_EN: modelEn,
      SPEECH_WORKERS: '2',
      SPEECH_THREADS: '1',
      WORKER_CONCURRENCY: '2',
      FILES_STORAGE_QUOTA_BYTES: String(4 * 1024 * mib),
      WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true',
      RATE_LIMIT_MAX: '100000',
    }),
  );
  const results: Record<string, unknown> = { date: new Date().toISOString(), modelEn, workers: 2 };
  try {
    const client = await HttpCustomer.signIn(server.baseUrl, account.email, defaultPassword);

    // 1. A 500 MB resumable upload, chunk by chunk, with the server's memory sampled.
    const before = await memoryOf(server.pid);
    let peakRss = before.rss;
    const sampler = setInterval(() => {
      void memoryOf(server.pid)
        .then((memory) => (peakRss = Math.max(peakRss, memory.rss)))
        .catch(() => undefined);
    }, 100);
    const started = performance.now();
    let state = await client.createUpload({
      fileName: 'big.mp4',
      type: 'video/mp4',
      languageCode: 'en',
      size,
      sha1: uploadSha1,
    });
    for (let index = 0; !state.isCompleted; index++) {
      state = await client.putChunk(state.fileId, state.size, chunkOf(index));
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const after = await memoryOf(server.pid);
    results.upload = {
      megabytes: size / mib,
      chunkMegabytes: chunkMb,
      seconds: Number(seconds.toFixed(2)),
      megabytesPerSecond: Number((size / mib / seconds).toFixed(1)),
      serverRssMiB: {
        before: Math.round(before.rss),
        peakDuring: Math.round(peakRss),
        after: Math.round(after.rss),
        growth: Math.round(peakRss - before.rss),
      },
    };
    console.log('upload', results.upload);
    await waitDone(client, state.fileId);
    await client.json('DELETE', `/files/third-party/${state.fileId}`);

    // 2. Upload complete → transcript, for each English dev recording, one at a time.
    const dev = readManifest().filter((entry) => entry.language === 'en' && entry.subset === 'utt');
    const latencies: { path: string; audioSeconds: number; seconds: number; wer: number }[] = [];
    const doneIds: string[] = [];
    for (const entry of dev) {
      const audio = await readFile(entry.absolutePath);
      let upload = await client.createUpload({
        fileName: path.basename(entry.path),
        type: 'audio/flac',
        languageCode: 'en',
        size: audio.length,
        sha1: createHash('sha1').update(audio).digest('hex'),
        callbackUrl: receiver.url,
      });
      while (!upload.isCompleted)
        upload = await client.putChunk(upload.fileId, upload.size, audio.subarray(upload.size));
      const completedAt = performance.now();
      const file = await waitDone(client, upload.fileId);
      const elapsed = (performance.now() - completedAt) / 1000;
      const text = await client.text(`/transcripts/download?fileIds=${upload.fileId}&format=text%2Fplain`);
      latencies.push({
        path: entry.path,
        audioSeconds: entry.durationSeconds,
        seconds: Number(elapsed.toFixed(2)),
        wer: Number(wordErrorRate(entry.referenceText, text, 'en').wer.toFixed(3)),
      });
      if (file.transcriptStatus === 'done') doneIds.push(upload.fileId);
    }
    const totalAudio = latencies.reduce((sum, item) => sum + item.audioSeconds, 0);
    const totalSeconds = latencies.reduce((sum, item) => sum + item.seconds, 0);
    results.completeToTranscript = {
      files: latencies.length,
      meanSeconds: Number((totalSeconds / latencies.length).toFixed(2)),
      maxSeconds: Math.max(...latencies.map((item) => item.seconds)),
      realTimeFactor: Number((totalSeconds / totalAudio).toFixed(3)),
      perFile: latencies,
    };
    console.log('complete → transcript', { ...(results.completeToTranscript as object), perFile: undefined });

    // 3. Jobs per minute with 2 workers: the same recordings again, all queued at once through the jobs API.
    for (const id of doneIds) await client.json('DELETE', `/files/third-party/${id}`);
    const queuedAt = performance.now();
    const jobs: string[] = [];
    for (const entry of dev) {
      const job = await client.json<TranscriptJob>(
        'POST',
        `/transcripts/jobs?language=en&webhookUrl=${encodeURIComponent(receiver.url)}&fileName=${encodeURIComponent(path.basename(entry.path))}`,
        await readFile(entry.absolutePath),
        { 'content-type': 'audio/flac' },
      );
      jobs.push(job.id);
    }
    for (const id of jobs) await waitDone(client, id);
    const minutes = (performance.now() - queuedAt) / 60_000;
    results.jobs = {
      jobs: jobs.length,
      audioSeconds: Number(totalAudio.toFixed(1)),
      minutes: Number(minutes.toFixed(2)),
      jobsPerMinute: Number((jobs.length / minutes).toFixed(1)),
    };
    console.log('jobs', results.jobs);

    // 4. Webhook deliveries per second: resends of the done files' messages to a local receiver.
    const before2 = receiver.received.length;
    const sentAt = performance.now();
    for (let index = 0; index < webhookCount; index++) {
      const id = jobs[index % jobs.length] ?? '';
      await client.json('POST', `/files/third-party/${id}/webhook-resend`);
    }
    const queuedSeconds = (performance.now() - sentAt) / 1000;
    while (receiver.received.length - before2 < webhookCount)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const deliverySeconds = (performance.now() - sentAt) / 1000;
    results.webhooks = {
      deliveries: webhookCount,
      queueSeconds: Number(queuedSeconds.toFixed(2)),
      seconds: Number(deliverySeconds.toFixed(2)),
      deliveriesPerSecond: Number((webhookCount / deliverySeconds).toFixed(1)),
    };
    console.log('webhooks', results.webhooks);
  } catch (error) {
    console.error(server.process.output.slice(-4000));
    throw error;
  } finally {
    await server.stop().catch(() => server.kill());
    await receiver.close();
    await rm(folder, { recursive: true, force: true });
  }
  const out = path.join('bench', 'results', `files-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${out}`);
}

await main();
