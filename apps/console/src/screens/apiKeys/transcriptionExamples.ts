import type { ApiKey } from '@verbatim/contracts';

/** What every key starts with; alone, it stands for "your key" when there is no key to name. */
export const apiKeyStart = 'vbt_live_';

/**
 * The key as the examples show it: the prefix of the caller's newest active key followed by "…"
 * (the whole secret is shown only once, at generation), or `vbt_live_…` when there is none.
 */
export function keyPlaceholder(prefix: string | null): string {
  return `${prefix ?? apiKeyStart}…`;
}

/** Active keys, newest first: the ones worth naming in an example. */
export function activeKeysNewestFirst(keys: readonly ApiKey[]): ApiKey[] {
  return keys
    .filter((key) => key.status === 'active')
    .sort((a, b) => Date.parse(b.created) - Date.parse(a.created));
}

export type ExampleLanguage = 'curl' | 'javascript' | 'python';

export type TranscriptionExampleId =
  | 'curlRaw'
  | 'curlMultipartSrt'
  | 'curlLanguages'
  | 'javascriptFetch'
  | 'javascriptOpenAi'
  | 'javascriptLive'
  | 'pythonOpenAi';

export interface TranscriptionExample {
  id: TranscriptionExampleId;
  language: ExampleLanguage;
  code: string;
}

/**
 * Ready-to-run calls of `POST /transcripts`, the OpenAI-compatible `POST /audio/transcriptions`
 * `GET /speech/languages` and the live socket `GET /transcripts/streaming` for the server at `origin`, with `apiKey` where the key goes.
 * Code only: the words around it are translated by the screen.
 */
export function transcriptionExamples(origin: string, apiKey: string): TranscriptionExample[] {
  const api = `${origin}/api/v1`;
  return [
    {
      id: 'curlRaw',
      language: 'curl',
      code: [
        `curl -X POST "${api}/transcripts" \\`,
        `  -H "Authorization: Bearer ${apiKey}" \\`,
        `  -H "Content-Type: audio/mpeg" \\`,
        `  --data-binary @recording.mp3`,
      ].join('\n'),
    },
    {
      id: 'curlMultipartSrt',
      language: 'curl',
      code: [
        `curl "${api}/transcripts?language=fr&format=srt" \\`,
        `  -H "x-api-key: ${apiKey}" \\`,
        `  -F file=@interview.m4a \\`,
        `  -o interview.srt`,
      ].join('\n'),
    },
    {
      id: 'curlLanguages',
      language: 'curl',
      code: [`curl "${api}/speech/languages?locale=en" \\`, `  -H "x-api-key: ${apiKey}"`].join('\n'),
    },
    {
      id: 'javascriptFetch',
      language: 'javascript',
      code: [
        `import { readFile } from 'node:fs/promises';`,
        ``,
        `const response = await fetch('${api}/transcripts?language=en', {`,
        `  method: 'POST',`,
        `  headers: {`,
        `    Authorization: 'Bearer ${apiKey}',`,
        `    'Content-Type': 'audio/mpeg',`,
        `  },`,
        `  body: await readFile('recording.mp3'),`,
        `});`,
        `if (!response.ok) {`,
        `  const error = await response.json();`,
        `  throw new Error(\`\${error.code}: \${error.message}\`);`,
        `}`,
        `const transcript = await response.json();`,
        `console.log(transcript.language, transcript.text);`,
        `for (const segment of transcript.segments) {`,
        `  console.log(segment.start, segment.end, segment.text);`,
        `}`,
      ].join('\n'),
    },
    {
      id: 'javascriptOpenAi',
      language: 'javascript',
      code: [
        `import fs from 'node:fs';`,
        `import OpenAI from 'openai';`,
        ``,
        `const client = new OpenAI({`,
        `  apiKey: '${apiKey}',`,
        `  baseURL: '${api}',`,
        `});`,
        ``,
        `const transcription = await client.audio.transcriptions.create({`,
        `  file: fs.createReadStream('recording.mp3'),`,
        `  model: 'whisper-1',`,
        `  response_format: 'verbose_json',`,
        `  timestamp_granularities: ['word'],`,
        `});`,
        `console.log(transcription.language, transcription.text);`,
        `for (const word of transcription.words ?? []) {`,
        `  console.log(word.start, word.end, word.word);`,
        `}`,
      ].join('\n'),
    },
    {
      id: 'javascriptLive',
      language: 'javascript',
      code: [
        `import { spawn } from 'node:child_process';`,
        `import WebSocket from 'ws';`,
        ``,
        `const socket = new WebSocket(`,
        `  '${api.replace(/^http/, 'ws')}/transcripts/streaming?languageCode=en&encoding=s16le&source=file',`,
        `  { headers: { 'x-api-key': '${apiKey}' } },`,
        `);`,
        `socket.on('message', (data) => {`,
        `  const message = JSON.parse(data.toString());`,
        `  if (message.type === 'connected') {`,
        `    // 16 kHz mono 16-bit samples; every frame must hold whole samples (2 bytes each).`,
        `    const ffmpeg = spawn('ffmpeg', ['-i', 'recording.mp3', '-f', 's16le', '-ac', '1', '-ar', '16000', '-']);`,
        `    let rest = Buffer.alloc(0);`,
        `    ffmpeg.stdout.on('data', (chunk) => {`,
        `      const bytes = Buffer.concat([rest, chunk]);`,
        `      const whole = bytes.length - (bytes.length % 2);`,
        `      socket.send(bytes.subarray(0, whole));`,
        `      rest = bytes.subarray(whole);`,
        `    });`,
        `    ffmpeg.on('close', () => socket.send('Done'));`,
        `  } else if (message.type === 'final') {`,
        `    console.log(message.segment, message.text);`,
        `  }`,
        `});`,
        `socket.on('close', (code, reason) => console.log('closed', code, reason.toString()));`,
      ].join('\n'),
    },
    {
      id: 'pythonOpenAi',
      language: 'python',
      code: [
        `from openai import OpenAI`,
        ``,
        `client = OpenAI(`,
        `    api_key="${apiKey}",`,
        `    base_url="${api}",`,
        `)`,
        ``,
        `with open("recording.mp3", "rb") as audio:`,
        `    transcription = client.audio.transcriptions.create(`,
        `        file=audio,`,
        `        model="whisper-1",`,
        `        response_format="verbose_json",`,
        `        timestamp_granularities=["word"],`,
        `    )`,
        ``,
        `print(transcription.language, transcription.text)`,
        `for word in transcription.words or []:`,
        `    print(word.start, word.end, word.word)`,
      ].join('\n'),
    },
  ];
}
