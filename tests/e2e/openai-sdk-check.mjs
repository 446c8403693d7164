// Drives a running Switchyard gateway with the official OpenAI SDK for Node, as a real client would.
// Usage: node openai-sdk-check.mjs http://127.0.0.1:8080   (the SDK must be installed: npm install openai)
import OpenAI from 'openai';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'unused', maxRetries: 0 });
const results = [];
const check = (name, ok, detail = '') => {
  results.push({ name, ok });
  console.log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
};

const models = await client.models.list();
const ids = models.data.map((m) => m.id);
check('models.list returns pool and pinned ids', ids.includes('nemotron-3-super') && ids.includes('vllm-server1/nemotron-3-super'), ids.join(', '));

const chat = await client.chat.completions.create({
  model: 'nemotron-3-super', messages: [{ role: 'user', content: 'Hello' }], max_tokens: 12,
});
check('chat.completions (pool)', chat.choices[0].message.content.length > 0 && chat.usage.completion_tokens === 12,
  JSON.stringify(chat.usage));

const { data: pinned, response } = await client.chat.completions
  .create({ model: 'vllm-server2/nemotron-3-super', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 4 })
  .withResponse();
check('pinned provider/model reaches that node', response.headers.get('x-switchyard-node') === 'vllm-server2',
  `node=${response.headers.get('x-switchyard-node')} model=${pinned.model}`);

const stream = await client.chat.completions.create({
  model: 'nemotron-3-super', messages: [{ role: 'user', content: 'Tell me something' }], max_tokens: 20,
  stream: true, stream_options: { include_usage: true },
});
let text = '', chunks = 0, usage = null;
for await (const chunk of stream) {
  chunks += 1;
  if (chunk.choices[0]?.delta?.content) text += chunk.choices[0].delta.content;
  if (chunk.usage) usage = chunk.usage;
}
check('streamed chat: chunks, text and usage', chunks > 5 && text.length > 0 && usage?.completion_tokens === 20,
  `${chunks} chunks, usage=${JSON.stringify(usage)}`);

const completion = await client.completions.create({ model: 'nemotron-3-super', prompt: 'Once', max_tokens: 5 });
check('completions', completion.choices[0].text.length > 0);

try {
  await client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] });
  check('unknown model is a 404 NotFoundError', false, 'no error');
} catch (e) {
  check('unknown model is a 404 NotFoundError', e.status === 404 && e.constructor.name === 'NotFoundError', `${e.status} ${e.message}`);
}

try {
  await client.embeddings.create({ model: 'nemotron-3-super', input: 'x' });
  check('embeddings forbidden by allowed_requests is a 400', false, 'no error');
} catch (e) {
  check('embeddings forbidden by allowed_requests is a 400', e.status === 400 && /embedding/.test(e.message), e.message);
}

const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
