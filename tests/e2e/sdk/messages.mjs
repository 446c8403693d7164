// Anthropic's Messages API through the gateway with the official `@anthropic-ai/sdk` package: created
// streamed and not, count_tokens, a pin reaching its node with the bare model, Anthropic-shaped errors,
// failover before the first byte, and the usage in /metrics.
import Anthropic from '@anthropic-ai/sdk';
import { attempt, check, finish, gateway, metricSum, nodeB, setFault } from './checklib.js';

const client = new Anthropic({ baseURL: gateway, apiKey: 'unused', maxRetries: 0 });
const messages = [{ role: 'user', content: 'Hello there' }];
const promptBefore = await metricSum('switchyard_node_prompt_tokens_total');
const tokensBefore = await metricSum('switchyard_node_completion_tokens_total');

await attempt('messages.create', async () => {
  const m = await client.messages.create({ model: 'm1', max_tokens: 8, messages });
  check('messages.create', m.type === 'message' && m.content[0].text.length > 0 && m.usage.output_tokens > 0,
    `stop=${m.stop_reason} usage=${JSON.stringify(m.usage)}`);
});

await attempt('messages.create streamed', async () => {
  const stream = await client.messages.create({ model: 'm1', max_tokens: 10, messages, stream: true });
  const types = [];
  let text = '';
  let output = 0;
  for await (const event of stream) {
    types.push(event.type);
    if (event.type === 'content_block_delta') text += event.delta.text;
    if (event.type === 'message_delta') output = event.usage.output_tokens;
  }
  check('messages streamed: message_start … message_stop',
    types[0] === 'message_start' && types.at(-1) === 'message_stop' && types.includes('content_block_delta') && text.length > 0,
    `${types.length} events`);
  check('messages streamed: usage in message_delta', output > 0, `output_tokens=${output}`);
});

await attempt('messages.stream helper', async () => {
  const final = await client.messages.stream({ model: 'm1', max_tokens: 6, messages }).finalMessage();
  check('messages.stream().finalMessage()', final.content[0].text.length > 0 && final.usage.output_tokens > 0,
    JSON.stringify(final.usage));
});

await attempt('count_tokens', async () => {
  const counted = await client.messages.countTokens({ model: 'm1', messages });
  check('messages.countTokens', counted.input_tokens > 0, `input_tokens=${counted.input_tokens}`);
});

await attempt('pinned provider/model', async () => {
  const { data, response } = await client.messages
    .create({ model: 'a/m1', max_tokens: 4, messages })
    .withResponse();
  check('pinned a/m1 reaches node a with the bare model',
    response.headers.get('x-switchyard-node') === 'a' && data.model === 'm1',
    `node=${response.headers.get('x-switchyard-node')} model=${data.model}`);
});

await attempt('anthropic-shaped error', async () => {
  try {
    await client.messages.create({ model: 'no-such-model', max_tokens: 4, messages });
    check('unknown model is a 404 NotFoundError in Anthropic\'s shape', false, 'no error');
  } catch (e) {
    check('unknown model is a 404 NotFoundError in Anthropic\'s shape',
      e.status === 404 && e instanceof Anthropic.NotFoundError && e.error?.error?.type === 'not_found_error',
      `${e.status} ${JSON.stringify(e.error)}`);
  }
});

await attempt('failover', async () => {
  await setFault(nodeB, 'dead');
  const nodes = [];
  for (let i = 0; i < 4; i += 1) {
    const { response } = await client.messages
      .create({ model: 'm1', max_tokens: 3, messages, stream: i % 2 === 1 })
      .withResponse();
    nodes.push(response.headers.get('x-switchyard-node'));
  }
  await setFault(nodeB, 'healthy');
  check('failover before the first byte: node b dead, a answers', nodes.every((n) => n === 'a'), nodes.join(','));
});

const promptAfter = await metricSum('switchyard_node_prompt_tokens_total');
const tokensAfter = await metricSum('switchyard_node_completion_tokens_total');
check('usage of the Messages API shows in /metrics', tokensAfter - tokensBefore >= 8 + 10 + 6 && promptAfter > promptBefore,
  `completion tokens ${tokensBefore} → ${tokensAfter}, prompt ${promptBefore} → ${promptAfter}`);
finish();
