// The Responses API through the gateway with the official `openai` package: created with and without
// streaming, a pin reaching its node with the bare model, a stored response retrieved from the node
// that created it, failover before the first byte, and the usage in /metrics.
import OpenAI from 'openai';
import { attempt, check, finish, gateway, metricSum, nodeA, setFault } from './checklib.js';

const client = new OpenAI({ baseURL: `${gateway}/v1`, apiKey: 'unused', maxRetries: 0 });
const tokensBefore = await metricSum('switchyard_node_completion_tokens_total');

await attempt('responses.create', async () => {
  const r = await client.responses.create({ model: 'm1', input: 'Say something', max_output_tokens: 8 });
  check('responses.create', r.object === 'response' && r.output_text.length > 0 && r.usage.output_tokens > 0,
    `status=${r.status} usage=${JSON.stringify(r.usage)}`);
});

let streamedId = null;
await attempt('responses.create streamed', async () => {
  const stream = await client.responses.create({ model: 'm1', input: 'Tell me more', max_output_tokens: 12, stream: true });
  const types = [];
  let text = '';
  let usage = null;
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'response.created') streamedId = event.response.id;
    if (event.type === 'response.output_text.delta') text += event.delta;
    if (event.type === 'response.completed') usage = event.response.usage;
  }
  check('responses.create streamed: events from created to completed',
    types[0] === 'response.created' && types.at(-1) === 'response.completed' && text.length > 0,
    `${types.length} events, ${types.slice(0, 4).join(', ')} … ${types.at(-1)}`);
  check('responses.create streamed: usage in response.completed', usage?.output_tokens > 0, JSON.stringify(usage));
});

await attempt('pinned provider/model', async () => {
  const { data, response } = await client.responses
    .create({ model: 'b/m1', input: 'Hi', max_output_tokens: 4 })
    .withResponse();
  check('pinned b/m1 reaches node b with the bare model',
    response.headers.get('x-switchyard-node') === 'b' && data.model === 'm1',
    `node=${response.headers.get('x-switchyard-node')} model=${data.model}`);
  const { data: again, response: from } = await client.responses.retrieve(data.id).withResponse();
  check('responses.retrieve reaches the node that created it',
    again.id === data.id && from.headers.get('x-switchyard-node') === 'b',
    `node=${from.headers.get('x-switchyard-node')}`);
});

if (streamedId) {
  await attempt('streamed response retrievable', async () => {
    const r = await client.responses.retrieve(streamedId);
    check('a streamed response is retrievable by its id', r.id === streamedId && r.output?.[0]?.content?.[0]?.text?.length > 0);
  });
}

await attempt('unknown response id', async () => {
  try {
    await client.responses.retrieve('resp_unknown');
    check('unknown response id is a 404 NotFoundError', false, 'no error');
  } catch (e) {
    check('unknown response id is a 404 NotFoundError', e.status === 404 && e instanceof OpenAI.NotFoundError, e.message);
  }
});

await attempt('failover', async () => {
  await setFault(nodeA, 'dead');
  const nodes = [];
  for (let i = 0; i < 4; i += 1) {
    const { response } = await client.responses
      .create({ model: 'm1', input: 'Hello', max_output_tokens: 3, stream: i % 2 === 1 })
      .withResponse();
    nodes.push(response.headers.get('x-switchyard-node'));
  }
  await setFault(nodeA, 'healthy');
  check('failover before the first byte: node a dead, b answers', nodes.every((n) => n === 'b'), nodes.join(','));
});

const tokensAfter = await metricSum('switchyard_node_completion_tokens_total');
check('usage of the Responses API shows in /metrics', tokensAfter - tokensBefore >= 8 + 12 + 4,
  `completion tokens ${tokensBefore} → ${tokensAfter}`);
finish();
