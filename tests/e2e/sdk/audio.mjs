// Audio uploads through the gateway with the official `openai` package, as a speech tool sends them:
// audio.transcriptions.create in every response format, streamed, pinned to a node (which gets the bare
// model name), audio.translations.create, and a form without a model refused naming the field.
import OpenAI, { toFile } from 'openai';
import { attempt, check, finish, gateway } from './checklib.js';

const model = 'm1';
const pinnedProvider = 'b';
const client = new OpenAI({ baseURL: `${gateway}/v1`, apiKey: 'unused', maxRetries: 0 });

// One second of 16 kHz 16-bit mono PCM in a WAV container: a tone, so the bytes are not all zero.
function wav(seconds = 1, rate = 16000) {
  const samples = Math.round(seconds * rate);
  const buf = Buffer.alloc(44 + samples * 2);
  buf.write('RIFF', 0); buf.writeUInt32LE(36 + samples * 2, 4); buf.write('WAVE', 8);
  buf.write('fmt ', 12); buf.writeUInt32LE(16, 16); buf.writeUInt16LE(1, 20); buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24); buf.writeUInt32LE(rate * 2, 28); buf.writeUInt16LE(2, 32); buf.writeUInt16LE(16, 34);
  buf.write('data', 36); buf.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) buf.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  return buf;
}
const audio = () => toFile(wav(), 'speech.wav', { type: 'audio/wav' });


await attempt('transcription (json)', async () => {
  const t = await client.audio.transcriptions.create({ file: await audio(), model });
  check('transcription (json)', typeof t.text === 'string' && t.text.length > 0, JSON.stringify(t).slice(0, 120));
});

await attempt('transcription (text)', async () => {
  const t = await client.audio.transcriptions.create({ file: await audio(), model, response_format: 'text' });
  check('transcription (text)', typeof t === 'string' && t.length > 0, String(t).slice(0, 80));
});

await attempt('transcription (verbose_json)', async () => {
  const t = await client.audio.transcriptions.create({ file: await audio(), model, response_format: 'verbose_json' });
  check('transcription (verbose_json)', Array.isArray(t.segments) && t.segments.length > 0 && t.text.length > 0,
    `${t.segments?.length} segments, duration ${t.duration}`);
});

for (const format of ['srt', 'vtt']) {
  await attempt(`transcription (${format})`, async () => {
    const t = await client.audio.transcriptions.create({ file: await audio(), model, response_format: format });
    const ok = typeof t === 'string' && t.includes('-->') && (format === 'srt' || t.startsWith('WEBVTT'));
    check(`transcription (${format})`, ok, JSON.stringify(String(t).slice(0, 60)));
  });
}

await attempt('pinned provider/model reaches that node', async () => {
  const { data, response } = await client.audio.transcriptions
    .create({ file: await audio(), model: `${pinnedProvider}/${model}` })
    .withResponse();
  const node = response.headers.get('x-switchyard-node');
  check('pinned provider/model reaches that node', node === pinnedProvider && data.text.length > 0, `node=${node}`);
});

await attempt('streamed transcription', async () => {
  const stream = await client.audio.transcriptions.create({ file: await audio(), model, stream: true });
  let events = 0, text = '';
  for await (const event of stream) {
    events += 1;
    // vLLM's chunks carry choices[].delta.content; OpenAI's transcript.text.delta events carry delta.
    text += event.choices?.[0]?.delta?.content ?? (typeof event.delta === 'string' ? event.delta : '');
  }
  check('streamed transcription', events > 1 && text.length > 0, `${events} events, ${text.length} characters`);
});

await attempt('translation (json)', async () => {
  const t = await client.audio.translations.create({ file: await audio(), model });
  check('translation (json)', typeof t.text === 'string' && t.text.length > 0, t.text.slice(0, 60));
});

await attempt('a form without model is refused naming the field', async () => {
  const form = new FormData();
  form.append('file', new Blob([wav()], { type: 'audio/wav' }), 'speech.wav');
  const r = await fetch(`${gateway}/v1/audio/transcriptions`, {
    method: 'POST', body: form, headers: { Authorization: 'Bearer unused' },
  });
  const body = await r.json();
  check('a form without model is refused naming the field', r.status === 400 && body.error?.param === 'model',
    `${r.status} ${body.error?.message}`);
});

finish();
