<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Conversation</name>
    <message>
        <source>Not valid JSON: %1 (at byte %2)</source>
        <translation>不是有效的 JSON：%1（位于第 %2 字节）</translation>
    </message>
    <message>
        <source>No &quot;messages&quot; array: this is not a saved chat.</source>
        <translation>没有 &quot;messages&quot; 数组：这不是保存的对话。</translation>
    </message>
    <message>
        <source>Unknown format &quot;%1&quot;.</source>
        <translation>未知格式 &quot;%1&quot;。</translation>
    </message>
    <message>
        <source>The chat was saved by a newer Switchyard (format version %1).</source>
        <translation>该对话由更新版本的 Switchyard 保存（格式版本 %1）。</translation>
    </message>
    <message>
        <source>Expected a JSON object or array.</source>
        <translation>应为 JSON 对象或数组。</translation>
    </message>
    <message>
        <source>Message %1 is not an object.</source>
        <translation>第 %1 条消息不是对象。</translation>
    </message>
    <message>
        <source>Message %1 has the role &quot;%2&quot;; a chat holds user and assistant messages.</source>
        <translation>第 %1 条消息的角色为 &quot;%2&quot;；对话只包含 user 和 assistant 消息。</translation>
    </message>
    <message>
        <source>The file is larger than 64 MB; it is not a saved chat.</source>
        <translation>文件大于 64 MB，不是保存的对话。</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>The demo is already running.</source>
        <translation>演示已在运行。</translation>
    </message>
    <message>
        <source>The demo could not start: %1</source>
        <translation>演示无法启动：%1</translation>
    </message>
    <message>
        <source>The demo&apos;s config is invalid: %1</source>
        <translation>演示的配置无效：%1</translation>
    </message>
    <message>
        <source>built-in demo</source>
        <translation>内置演示</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>every model (*)</source>
        <translation>所有模型 (*)</translation>
    </message>
    <message>
        <source>weighted round robin</source>
        <translation>加权轮询</translation>
    </message>
    <message>
        <source>least outstanding</source>
        <translation>最少未完成请求</translation>
    </message>
    <message>
        <source>load aware</source>
        <translation>负载感知</translation>
    </message>
    <message>
        <source>session affinity</source>
        <translation>会话亲和</translation>
    </message>
    <message>
        <source>cache aware</source>
        <translation>缓存感知</translation>
    </message>
</context>
<context>
    <name>switchyard::app::CommandLine</name>
    <message>
        <source>Run the gateway without windows (for servers).</source>
        <translation>不带窗口运行网关（用于服务器）。</translation>
    </message>
    <message>
        <source>Start two simulated vLLM nodes (vllm-server1/2, nemotron-3-super, 1:1) and the gateway over them; no config needed.</source>
        <translation>启动两个模拟的 vLLM 节点（vllm-server1/2，nemotron-3-super，1:1）以及其前面的网关；无需配置。</translation>
    </message>
    <message>
        <source>Bifrost-compatible config file (JSON).</source>
        <translation>兼容 Bifrost 的配置文件（JSON）。</translation>
    </message>
    <message>
        <source>FILE</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Listen address, overriding the config (default 127.0.0.1:8080).</source>
        <translation>监听地址，覆盖配置中的设置（默认 127.0.0.1:8080）。</translation>
    </message>
    <message>
        <source>Validate a config file: print OK or every problem, exit 0 or 2.</source>
        <translation>校验配置文件：输出 OK 或所有问题，退出码 0 或 2。</translation>
    </message>
    <message>
        <source>Print the config FILE without Switchyard&apos;s own section, for Bifrost.</source>
        <translation>输出去掉 Switchyard 自有部分后的配置文件，供 Bifrost 使用。</translation>
    </message>
    <message>
        <source>Switchyard: a control panel with an embedded OpenAI-compatible gateway for self-hosted LLM nodes.
Without options it opens the panel on the last config, or offers the built-in demo.
switchyard --bench [--target URL|provider|gateway] [--suite article|sweep|full] [--format md|csv|json] [--config FILE | --demo] measures nodes and the gateway without a window (see docs/BENCHMARK.md).</source>
        <translation>Switchyard：内置兼容 OpenAI 网关的控制面板，用于自托管的大模型节点。
不带选项时，在上次的配置上打开面板，或提供内置演示。
switchyard --bench [--target URL|provider|gateway] [--suite article|sweep|full] [--format md|csv|json] [--config FILE | --demo] 无需窗口即可测量节点和网关（见 docs/BENCHMARK.md）。</translation>
    </message>
    <message>
        <source>Open the panel on a remote gateway (its management API). The admin key comes from SWITCHYARD_ADMIN_KEY, else it is asked for.</source>
        <translation>打开面板并连接到远程网关（通过其管理 API）。管理密钥取自 SWITCHYARD_ADMIN_KEY，未设置时会询问。</translation>
    </message>
</context>
<context>
    <name>switchyard::app::RemoteLink</name>
    <message>
        <source>%1 is not a gateway address (http://HOST:PORT or https://HOST:PORT)</source>
        <translation>%1 不是网关地址（应为 http://HOST:PORT 或 https://HOST:PORT）</translation>
    </message>
</context>
<context>
    <name>switchyard::bench::BenchmarkRunner</name>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>finding the model</source>
        <translation>正在查找模型</translation>
    </message>
    <message>
        <source>warm-up</source>
        <translation>预热</translation>
    </message>
    <message>
        <source>%1 tokens, request %2 of %3</source>
        <translation>%1 个 token，第 %2 / %3 个请求</translation>
    </message>
    <message>
        <source>%1 parallel × %2 tokens</source>
        <translation>%1 并发 × %2 个 token</translation>
    </message>
    <message>
        <source>sweep: %1 parallel × %2 tokens</source>
        <translation>扫描：%1 并发 × %2 个 token</translation>
    </message>
</context>
<context>
    <name>switchyard::bench::MultiTurnRunner</name>
    <message>
        <source>%1 · conversation %2, turn %3 of %4</source>
        <translation>%1 · 对话 %2，第 %3/%4 轮</translation>
    </message>
</context>
<context>
    <name>switchyard::client::ChatClient</name>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation>HTTP %1：%2</translation>
    </message>
    <message>
        <source>Unreadable model list: %1</source>
        <translation>无法读取的模型列表：%1</translation>
    </message>
    <message>
        <source>The stream reported an error without a message.</source>
        <translation>流报告了一个错误，但没有附带消息。</translation>
    </message>
    <message>
        <source>Cannot reach the gateway at %1: %2</source>
        <translation>无法连接 %1 处的网关：%2</translation>
    </message>
    <message>
        <source>The gateway answered HTTP %1 without a message.</source>
        <translation>网关返回 HTTP %1，但没有附带消息。</translation>
    </message>
    <message>
        <source>The gateway answered HTTP %1 but not with a chat completion%2</source>
        <translation>网关返回 HTTP %1，但不是对话补全%2</translation>
    </message>
    <message>
        <source>The stream broke off before the reply was complete: %1</source>
        <translation>回复完成前流已中断：%1</translation>
    </message>
    <message>
        <source>The stream ended before the reply was complete (no finish reason, no [DONE]).</source>
        <translation>回复完成前流已结束（没有 finish reason，也没有 [DONE]）。</translation>
    </message>
    <message>
        <source>The stream ended before the reply was complete; an event could not be read: %1</source>
        <translation>回复完成前流已结束；有一个事件无法读取：%1</translation>
    </message>
    <message>
        <source>The gateway at %1 showed a certificate that is not trusted: %2</source>
        <translation>%1 处的网关出示了不受信任的证书：%2</translation>
    </message>
    <message>
        <source>The answer broke off before it was complete: %1</source>
        <translation>回答在完成前中断：%1</translation>
    </message>
</context>
<context>
    <name>switchyard::client::FleetLink</name>
    <message>
        <source>%1 keep their own keys (no switchyard.redis_url): manage keys in each gateway&apos;s own window.</source>
        <translation>%1 各自保存自己的密钥（未设置 switchyard.redis_url）：请在每个网关自己的窗口中管理密钥。</translation>
    </message>
    <message>
        <source>The gateways share their keys through different Redis servers (%1): manage keys in each gateway&apos;s own window.</source>
        <translation>这些网关通过不同的 Redis 服务器共享密钥（%1）：请在每个网关自己的窗口中管理密钥。</translation>
    </message>
    <message>
        <source>No gateway of the fleet answered.</source>
        <translation>集群中没有网关应答。</translation>
    </message>
    <message>
        <source>A change to the keys is still on its way.</source>
        <translation>对密钥的上一项更改仍在进行中。</translation>
    </message>
    <message>
        <source>The gateway it was sent to left the fleet before it answered.</source>
        <translation>接收该请求的网关在应答前已离开集群。</translation>
    </message>
</context>
<context>
    <name>switchyard::link::GatewayLink</name>
    <message>
        <source>Virtual keys are managed on one gateway at a time: open that gateway&apos;s own window.</source>
        <translation>虚拟密钥每次只在一个网关上管理：请打开该网关自己的窗口。</translation>
    </message>
    <message>
        <source>Each gateway keeps its own history: search it in that gateway&apos;s own window.</source>
        <translation>每个网关各自保存历史记录：请在该网关自己的窗口中搜索。</translation>
    </message>
    <message>
        <source>Each gateway keeps its own history: see its day and week in that gateway&apos;s own window.</source>
        <translation>每个网关各自保存历史记录：请在该网关自己的窗口中查看其一天和一周的数据。</translation>
    </message>
</context>
<context>
    <name>switchyard::link::LocalGatewayLink</name>
    <message>
        <source>This process</source>
        <translation>本进程</translation>
    </message>
    <message>
        <source>The running config changed since it was read; reload it and apply again.</source>
        <translation>运行中的配置在读取后已更改；请重新加载后再应用。</translation>
    </message>
    <message>
        <source>no changes</source>
        <translation>无更改</translation>
    </message>
    <message>
        <source>No node named &apos;%1&apos;</source>
        <translation>没有名为“%1”的节点</translation>
    </message>
    <message>
        <source>A key needs a name: whom or what it is for.</source>
        <translation>密钥需要一个名称：给谁或什么用。</translation>
    </message>
    <message>
        <source>There are %1 keys already (revoked ones included).</source>
        <translation>已有 %1 个密钥（包括已吊销的）。</translation>
    </message>
    <message>
        <source>The key was revoked; a revoked key cannot be changed.</source>
        <translation>该密钥已被吊销；已吊销的密钥无法更改。</translation>
    </message>
    <message>
        <source>No such key.</source>
        <translation>没有这个密钥。</translation>
    </message>
    <message>
        <source>This gateway keeps no lasting history: set switchyard.history.path in its config (the Config tab&apos;s Storage settings; docs/HISTORY.md).</source>
        <translation>此网关不保存持久历史记录：请在其配置中设置 switchyard.history.path（配置页的存储设置；docs/HISTORY.md）。</translation>
    </message>
    <message>
        <source>The history could not be opened: %1</source>
        <translation>无法打开历史记录：%1</translation>
    </message>
    <message>
        <source>The history could not be read: %1</source>
        <translation>无法读取历史记录：%1</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::BenchmarkResultTables</name>
    <message>
        <source>&lt;b&gt;Single requests&lt;/b&gt;</source>
        <translation>&lt;b&gt;单个请求&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Avg latency
(ms)</source>
        <translation>平均延迟
(ms)</translation>
    </message>
    <message>
        <source>Throughput
(tok/s)</source>
        <translation>吞吐
(tok/s)</translation>
    </message>
    <message>
        <source>P95
(ms)</source>
        <translation>P95
(ms)</translation>
    </message>
    <message>
        <source>Avg TTFT
(ms)</source>
        <translation>平均 TTFT
(ms)</translation>
    </message>
    <message>
        <source>Decode
(tok/s)</source>
        <translation>解码
(tok/s)</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Total time
(ms)</source>
        <translation>总耗时
(ms)</translation>
    </message>
    <message>
        <source>Effective throughput
(tok/s)</source>
        <translation>有效吞吐
(tok/s)</translation>
    </message>
    <message>
        <source>Success rate</source>
        <translation>成功率</translation>
    </message>
    <message>
        <source>&lt;b&gt;Concurrency sweep&lt;/b&gt; (plotted on the right)</source>
        <translation>&lt;b&gt;并发扫描&lt;/b&gt;（绘制在右侧）</translation>
    </message>
    <message>
        <source>Parallel</source>
        <translation>并发</translation>
    </message>
    <message>
        <source>Effective
(tok/s)</source>
        <translation>有效
(tok/s)</translation>
    </message>
    <message>
        <source>Per request
(tok/s)</source>
        <translation>单请求
(tok/s)</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>&lt;b&gt;Concurrency&lt;/b&gt; (%1 parallel requests × %2 tokens)</source>
        <translation>&lt;b&gt;并发&lt;/b&gt;（%1 个并行请求 × %2 个 token）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Concurrency&lt;/b&gt;</source>
        <translation>&lt;b&gt;并发&lt;/b&gt;</translation>
    </message>
    <message>
        <source>P50 %1 ms · P95 %2 ms · P99 %3 ms · max %4 ms</source>
        <translation>P50 %1 毫秒 · P95 %2 毫秒 · P99 %3 毫秒 · 最大 %4 毫秒</translation>
    </message>
    <message>
        <source>%1 parallel requests took %2 ms in all</source>
        <translation>%1 个并行请求共用时 %2 毫秒</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::BenchmarkSuiteForm</name>
    <message>
        <source>Suite</source>
        <translation>测试套件</translation>
    </message>
    <message>
        <source>Article&apos;s tables: 20/100/300 tokens + parallel</source>
        <translation>原文表格：20/100/300 个 token + 并发</translation>
    </message>
    <message>
        <source>Concurrency sweep</source>
        <translation>并发扫描</translation>
    </message>
    <message>
        <source>Article&apos;s tables + sweep</source>
        <translation>原文表格 + 扫描</translation>
    </message>
    <message>
        <source>Suite:</source>
        <translation>测试套件：</translation>
    </message>
    <message>
        <source>Sequential requests per max_tokens value (20, 100, 300)</source>
        <translation>每个 max_tokens 值的顺序请求数（20、100、300）</translation>
    </message>
    <message>
        <source>Repetitions:</source>
        <translation>重复次数：</translation>
    </message>
    <message>
        <source>Parallel requests of the concurrency test (the article&apos;s tables use 5, 20 tokens each)</source>
        <translation>并发测试的并行请求数（原文表格使用 5 个，每个 20 个 token）</translation>
    </message>
    <message>
        <source>Parallel:</source>
        <translation>并发数：</translation>
    </message>
    <message>
        <source>The sweep doubles the parallel requests from 1 up to this</source>
        <translation>扫描将并行请求数从 1 翻倍直到此值</translation>
    </message>
    <message>
        <source>Sweep up to:</source>
        <translation>扫描上限：</translation>
    </message>
    <message>
        <source>max_tokens of every sweep request</source>
        <translation>每个扫描请求的 max_tokens</translation>
    </message>
    <message>
        <source>Sweep tokens:</source>
        <translation>扫描 token 数：</translation>
    </message>
    <message>
        <source>Requests per target sent first and not counted (connections, caches)</source>
        <translation>每个目标先发送、不计入结果的请求数（建立连接、预热缓存）</translation>
    </message>
    <message>
        <source>Warm-up:</source>
        <translation>预热：</translation>
    </message>
    <message>
        <source>Chat Completions</source>
        <translation>Chat Completions（对话补全）</translation>
    </message>
    <message>
        <source>Responses</source>
        <translation>Responses（响应 API）</translation>
    </message>
    <message>
        <source>The API the requests speak: POST /v1/chat/completions, or POST /v1/responses (which vLLM serves; it has no ignore_eos, so a model may stop before max_tokens)</source>
        <translation>请求使用的 API：POST /v1/chat/completions，或 POST /v1/responses（vLLM 支持；它没有 ignore_eos，模型可能在达到 max_tokens 前停止）</translation>
    </message>
    <message>
        <source>API:</source>
        <translation>API：</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::BenchmarkSweepCharts</name>
    <message>
        <source>Throughput vs. concurrency</source>
        <translation>吞吐与并发</translation>
    </message>
    <message>
        <source>Latency vs. concurrency</source>
        <translation>延迟与并发</translation>
    </message>
    <message>
        <source>parallel requests</source>
        <translation>并行请求数</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>A run&apos;s sweep is plotted here: where each target saturates. The article&apos;s suite plots its single requests.</source>
        <translation>此处绘制运行的并发扫描：各目标在何处饱和。文章套件绘制其单个请求。</translation>
    </message>
    <message>
        <source>Nothing to plot: this run measured neither a sweep nor single requests.</source>
        <translation>没有可绘制的内容：本次运行既未测量并发扫描，也未测量单个请求。</translation>
    </message>
    <message>
        <source>Concurrency sweep, %1 tokens per request, a line per target: throughput of all requests together, average latency.</source>
        <translation>并发扫描，每个请求 %1 个 token，每个目标一条线：所有请求合计的吞吐量、平均延迟。</translation>
    </message>
    <message>
        <source>Concurrency sweep, a line per target: throughput of all requests together, average latency.</source>
        <translation>并发扫描，每个目标一条线：所有请求合计的吞吐量、平均延迟。</translation>
    </message>
    <message>
        <source>Dashed: the run of %1.</source>
        <translation>虚线：%1 的运行。</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 个 token</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Throughput by answer length</source>
        <translation>按回答长度的吞吐量</translation>
    </message>
    <message>
        <source>Latency by answer length</source>
        <translation>按回答长度的延迟</translation>
    </message>
    <message>
        <source>Single requests (no sweep in this run), a bar per target and answer length: throughput of one request, average latency.</source>
        <translation>单个请求（本次运行没有并发扫描），每个目标和回答长度一根柱：单个请求的吞吐量、平均延迟。</translation>
    </message>
    <message>
        <source>Paler: the run of %1.</source>
        <translation>较浅：%1 的运行。</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::BenchmarkTargetPicker</name>
    <message>
        <source>Targets</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Each node is measured directly; the gateway pool goes through Switchyard&apos;s weighted round-robin over the nodes serving its model.</source>
        <translation>每个节点都被直接测量；网关池则经过 Switchyard 的加权轮询，分发到提供该模型的节点。</translation>
    </message>
    <message>
        <source>Other server: http://host:port</source>
        <translation>其他服务器：http://host:port</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Re-read the nodes and the gateway&apos;s address</source>
        <translation>重新读取节点和网关地址</translation>
    </message>
    <message>
        <source>gateway pool (start the gateway to measure it)</source>
        <translation>网关池（启动网关后才能测量）</translation>
    </message>
    <message>
        <source>gateway pool (%1 nodes)</source>
        <translation>网关池（%1 个节点）</translation>
    </message>
    <message>
        <source>gateway pool (1 node)</source>
        <translation>网关池（1 个节点）</translation>
    </message>
    <message>
        <source>gateway</source>
        <translation>网关</translation>
    </message>
    <message>
        <source>model from /v1/models</source>
        <translation>来自 /v1/models 的模型</translation>
    </message>
    <message>
        <source>Not an http(s) URL: %1</source>
        <translation>不是 http(s) URL：%1</translation>
    </message>
    <message>
        <source>remote gateway %1</source>
        <translation>远程网关 %1</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::BenchmarkView</name>
    <message>
        <source>%1 · %2 · %3%4</source>
        <translation>%1 · %2 · %3%4</translation>
    </message>
    <message>
        <source> (cancelled)</source>
        <translation>（已取消）</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>&amp;Run benchmark</source>
        <translation>运行基准测试(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Pick targets and a suite, then run.</source>
        <translation>选择目标和测试套件，然后运行。</translation>
    </message>
    <message>
        <source>Latency: sent → last byte. TTFT: sent → first token. tok/s: completion tokens (from usage) / latency. Effective throughput: all tokens / wall time. P95: nearest rank. Warm-up excluded; failures counted.</source>
        <translation>延迟：发送 → 最后一个字节。TTFT：发送 → 首个 token。tok/s：完成 token 数（来自 usage）/ 延迟。有效吞吐：全部 token / 总耗时。P95：最近秩法。不含预热；失败计入。</translation>
    </message>
    <message>
        <source>Showing:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Compare with:</source>
        <translation>对比：</translation>
    </message>
    <message>
        <source>Export Markdown…</source>
        <translation>导出 Markdown…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Copy as Markdown</source>
        <translation>复制为 Markdown</translation>
    </message>
    <message>
        <source>Delete run</source>
        <translation>删除此次运行</translation>
    </message>
    <message>
        <source>Check at least one target.</source>
        <translation>请至少勾选一个目标。</translation>
    </message>
    <message>
        <source>%v / %m requests</source>
        <translation>%v / %m 个请求</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Cancelled after %1 s; what finished is shown and kept.</source>
        <translation>已在 %1 秒后取消；已完成的结果会显示并保留。</translation>
    </message>
    <message>
        <source>Kept benchmark runs could not be read (%1); new runs replace the file.</source>
        <translation>无法读取保存的基准测试结果（%1）；新的运行将替换该文件。</translation>
    </message>
    <message>
        <source>Could not keep the run in %1: %2</source>
        <translation>无法将此次运行保存到 %1：%2</translation>
    </message>
    <message>
        <source>(nothing)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Running: %1</source>
        <translation>正在运行：%1</translation>
    </message>
    <message>
        <source>(no runs yet)</source>
        <translation>（尚无运行）</translation>
    </message>
    <message>
        <source>No results yet. On the demo, &lt;i&gt;Article&apos;s tables + sweep&lt;/i&gt; over both nodes and the gateway reproduces the article&apos;s tables and adds the saturation curve.</source>
        <translation>尚无结果。在演示中，对两个节点和网关运行&lt;i&gt;原文表格 + 扫描&lt;/i&gt;，即可重现原文中的表格，并加上饱和曲线。</translation>
    </message>
    <message>
        <source>%1 — took %2 s</source>
        <translation>%1 — 用时 %2 秒</translation>
    </message>
    <message>
        <source>Running: %1 — results appear as each test finishes</source>
        <translation>正在运行：%1 — 每项测试完成后显示结果</translation>
    </message>
    <message>
        <source>compared with %1</source>
        <translation>与 %1 对比</translation>
    </message>
    <message>
        <source>Export benchmark as Markdown</source>
        <translation>将基准测试导出为 Markdown</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export benchmark as CSV</source>
        <translation>将基准测试导出为 CSV</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>The shown results are on the clipboard as Markdown.</source>
        <translation>显示的结果已作为 Markdown 复制到剪贴板。</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>%1 so far</source>
        <translation>已用 %1</translation>
    </message>
    <message>
        <source>%1 so far, about %2 left</source>
        <translation>已用 %1，约剩 %2</translation>
    </message>
    <message>
        <source>Done in %1.</source>
        <translation>用时 %1 完成。</translation>
    </message>
    <message>
        <source>as configured</source>
        <translation>按当前配置</translation>
    </message>
    <message>
        <source>Article&apos;s tables and sweep</source>
        <translation>文章中的表格与并发扫描</translation>
    </message>
    <message>
        <source>Multi-turn conversations</source>
        <translation>多轮对话</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::CertificateQuestion</name>
    <message>
        <source>Untrusted Certificate</source>
        <translation>不受信任的证书</translation>
    </message>
    <message>
        <source>&lt;b&gt;The certificate of %1 is not trusted.&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1 的证书不受信任。&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Compare the fingerprint with the one of the certificate on the gateway&apos;s server. Trust it only if they match: Switchyard then remembers this certificate for this gateway and asks again if it ever changes.</source>
        <translation>请将此指纹与网关服务器上证书的指纹进行比对，仅在两者一致时才信任：Switchyard 随后会为此网关记住该证书，证书一旦变化会再次询问。</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Subject:</source>
        <translation>主题：</translation>
    </message>
    <message>
        <source>SHA-256:</source>
        <translation>SHA-256：</translation>
    </message>
    <message>
        <source>Problem:</source>
        <translation>问题：</translation>
    </message>
    <message>
        <source>&amp;Trust This Certificate</source>
        <translation>信任此证书(&amp;T)</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::ChartsView</name>
    <message>
        <source>Window:</source>
        <translation>时间窗口：</translation>
    </message>
    <message>
        <source>1 minute (1 s points)</source>
        <translation>1 分钟（每点 1 秒）</translation>
    </message>
    <message>
        <source>15 minutes (5 s averages)</source>
        <translation>15 分钟（5 秒平均）</translation>
    </message>
    <message>
        <source>1 hour (20 s averages)</source>
        <translation>1 小时（20 秒平均）</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>Freeze the charts; samples are still recorded</source>
        <translation>冻结图表；仍会继续记录采样</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Output tokens/s</source>
        <translation>输出 Token/秒</translation>
    </message>
    <message>
        <source>Requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>Latency (s)</source>
        <translation>延迟（秒）</translation>
    </message>
    <message>
        <source>Queue depth</source>
        <translation>队列深度</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>All nodes</source>
        <translation>所有节点</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p95</source>
        <translation>p95</translation>
    </message>
    <message>
        <source>Time to first token p95</source>
        <translation>首 token 时间 p95</translation>
    </message>
    <message>
        <source>%1 in flight</source>
        <translation>%1 个处理中</translation>
    </message>
    <message>
        <source>%1 waiting</source>
        <translation>%1 个等待中</translation>
    </message>
    <message>
        <source>Paused: samples are still recorded.</source>
        <translation>已暂停：仍在记录采样。</translation>
    </message>
    <message>
        <source>Export charts as PNG</source>
        <translation>将图表导出为 PNG</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Export chart data as CSV</source>
        <translation>将图表数据导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Click a line&apos;s name to hide or show it</source>
        <translation>点击线条名称以隐藏或显示它</translation>
    </message>
    <message>
        <source>Failed requests</source>
        <translation>失败的请求</translation>
    </message>
    <message>
        <source>Failed attempts</source>
        <translation>失败的尝试</translation>
    </message>
    <message>
        <source>Prefix-cache hits (%)</source>
        <translation>前缀缓存命中率 (%)</translation>
    </message>
    <message>
        <source>%</source>
        <translation>%</translation>
    </message>
    <message>
        <source>24 hours (history, 5 min sums)</source>
        <translation>24 小时（历史记录，5 分钟汇总）</translation>
    </message>
    <message>
        <source>7 days (history, hourly sums)</source>
        <translation>7 天（历史记录，每小时汇总）</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::ChatComposer</name>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Message — Ctrl+Enter sends, Esc stops a reply</source>
        <translation>消息 — Ctrl+Enter 发送，Esc 停止回复</translation>
    </message>
    <message>
        <source>Send (Ctrl+Enter)</source>
        <translation>发送 (Ctrl+Enter)</translation>
    </message>
    <message>
        <source>Stop the reply (Esc): the request is aborted and the node stops generating</source>
        <translation>停止回复 (Esc)：请求被中止，节点停止生成</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::ChatConsole</name>
    <message>
        <source>St&amp;art the gateway</source>
        <translation>启动网关(&amp;A)</translation>
    </message>
    <message>
        <source>No gateway: the chat console talks to models through the gateway.</source>
        <translation>没有网关：对话控制台通过网关与模型对话。</translation>
    </message>
    <message>
        <source>The gateway is stopping; replies already streaming finish, new ones cannot start.</source>
        <translation>网关正在停止；已在流式输出的回复会完成，但无法开始新的回复。</translation>
    </message>
    <message>
        <source>The gateway is off, so there is nothing to chat with. Start it to list its models and send messages; saved chats can still be opened.</source>
        <translation>网关已关闭，因此无法对话。启动网关即可列出其模型并发送消息；仍可打开已保存的对话。</translation>
    </message>
    <message>
        <source>Gateway at %1</source>
        <translation>网关地址 %1</translation>
    </message>
    <message>
        <source>cannot list models: %1</source>
        <translation>无法列出模型：%1</translation>
    </message>
    <message>
        <source>1 model</source>
        <translation>1 个模型</translation>
    </message>
    <message>
        <source>%1 models</source>
        <translation>%1 个模型</translation>
    </message>
    <message>
        <source>Gateway off</source>
        <translation>网关已关闭</translation>
    </message>
    <message>
        <source>The gateway could not start: %1</source>
        <translation>网关无法启动：%1</translation>
    </message>
    <message>
        <source>Pick a model first.</source>
        <translation>请先选择一个模型。</translation>
    </message>
    <message>
        <source>The previous request is still running.</source>
        <translation>上一个请求仍在进行中。</translation>
    </message>
    <message>
        <source>The gateway answered HTTP %1: %2</source>
        <translation>网关返回 HTTP %1：%2</translation>
    </message>
    <message>
        <source>The reply failed mid-stream: %1</source>
        <translation>回复在流式输出中途失败：%1</translation>
    </message>
    <message>
        <source>Reply copied to the clipboard.</source>
        <translation>回复已复制到剪贴板。</translation>
    </message>
    <message>
        <source>Saved to %1</source>
        <translation>已保存到 %1</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Save chat</source>
        <translation>保存对话</translation>
    </message>
    <message>
        <source>chat.json</source>
        <translation>chat.json</translation>
    </message>
    <message>
        <source>Chats (*.json);;All files (*)</source>
        <translation>对话 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <source>Open chat</source>
        <translation>打开对话</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::ChatModelPicker</name>
    <message>
        <source>model, or provider/model</source>
        <translation>模型，或 提供方/模型</translation>
    </message>
    <message>
        <source>A bare model name goes to the pool of nodes serving it (the gateway balances and fails over); &quot;provider/model&quot; pins one node.</source>
        <translation>单独的模型名会发往提供该模型的节点池（由网关均衡并故障转移）；&quot;提供方/模型&quot; 则固定到一个节点。</translation>
    </message>
    <message>
        <source>Pool: the gateway picks among %1 and fails over</source>
        <translation>节点池：网关在 %1 中选择并自动故障转移</translation>
    </message>
    <message>
        <source>Pinned: only the node %1 answers, no failover</source>
        <translation>固定：只有节点 %1 回答，不做故障转移</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::ChatSettingsBar</name>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>↻</source>
        <translation>↻</translation>
    </message>
    <message>
        <source>Ask the gateway for its models again</source>
        <translation>重新向网关获取模型列表</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Sampling temperature; &quot;default&quot; leaves it to the model</source>
        <translation>采样温度；&quot;默认&quot; 表示交给模型决定</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>温度(&amp;T)：</translation>
    </message>
    <message>
        <source>Upper bound on the reply&apos;s tokens (reasoning included); &quot;default&quot; lets the node decide (the rest of its context)</source>
        <translation>回复 token 数上限（含推理部分）；&quot;默认&quot; 表示由节点决定（其上下文的剩余部分）</translation>
    </message>
    <message>
        <source>Max t&amp;okens:</source>
        <translation>最大 token 数(&amp;O)：</translation>
    </message>
    <message>
        <source>Ne&amp;w chat</source>
        <translation>新对话(&amp;W)</translation>
    </message>
    <message>
        <source>Start over: clears the messages, keeps the model and settings</source>
        <translation>重新开始：清空消息，保留模型和设置</translation>
    </message>
    <message>
        <source>O&amp;pen…</source>
        <translation>打开(&amp;P)…</translation>
    </message>
    <message>
        <source>Open a chat saved as JSON (or an OpenAI request body)</source>
        <translation>打开保存为 JSON 的对话（或 OpenAI 请求体）</translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation>保存(&amp;S)…</translation>
    </message>
    <message>
        <source>Save this chat as JSON: messages, reasoning, settings and each reply&apos;s node and timings</source>
        <translation>将此对话保存为 JSON：消息、推理内容、设置，以及每条回复的节点和耗时</translation>
    </message>
    <message>
        <source>System prompt (optional), sent first with every turn</source>
        <translation>系统提示词（可选），每轮都会最先发送</translation>
    </message>
    <message>
        <source>S&amp;ystem:</source>
        <translation>系统(&amp;Y)：</translation>
    </message>
    <message>
        <source>Responses API</source>
        <translation>Responses API</translation>
    </message>
    <message>
        <source>Send the chat through the Responses API (POST /v1/responses) instead of chat completions: what coding agents and the newer OpenAI SDK calls use</source>
        <translation>通过 Responses API（POST /v1/responses）而不是 chat completions 发送对话：编程智能体和较新的 OpenAI SDK 调用使用它</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::ChatTranscript</name>
    <message>
        <source>Pick a model, type a message and press Ctrl+Enter.
The reply streams in as the node writes it; the line under it tells which node answered, after how many attempts, and how fast.</source>
        <translation>选择一个模型，输入消息，然后按 Ctrl+Enter。
回复会随节点生成实时流入；下方一行显示由哪个节点回答、尝试了几次以及速度。</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::ConfigEditor</name>
    <message>
        <source>it is a directory</source>
        <translation>这是一个目录</translation>
    </message>
    <message>
        <source>the file is %1 bytes, too big to be a config</source>
        <translation>文件大小为 %1 字节，太大，不可能是配置文件</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Keep my version</source>
        <translation>保留我的版本</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Open a config file, apply it and edit it here</source>
        <translation>打开配置文件，应用它并在此编辑</translation>
    </message>
    <message>
        <source>Import Bifrost…</source>
        <translation>导入 Bifrost…</translation>
    </message>
    <message>
        <source>Load a Bifrost config.json as it is, without applying it; Save As makes it a Switchyard config</source>
        <translation>按原样加载 Bifrost 的 config.json，但不应用；“另存为”会把它保存为 Switchyard 配置</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save the config (the previous version is kept as .bak; an invalid config is never written)</source>
        <translation>保存配置（上一版本保留为 .bak；无效的配置永远不会被写入）</translation>
    </message>
    <message>
        <source>Save As…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <source>Save the config under another name</source>
        <translation>以其他名称保存配置</translation>
    </message>
    <message>
        <source>Export for Bifrost…</source>
        <translation>导出为 Bifrost 配置…</translation>
    </message>
    <message>
        <source>Write a Bifrost-compatible file: the same providers, without Switchyard&apos;s own section</source>
        <translation>写入兼容 Bifrost 的文件：提供方相同，但不含 Switchyard 自有部分</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Undo the last change, in the text or the form</source>
        <translation>撤销上一次更改（文本或表单中的）</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Read the file again from disk (asks about unsaved edits)</source>
        <translation>从磁盘重新读取文件（如有未保存的编辑会先询问）</translation>
    </message>
    <message>
        <source>Validate and put this config into service: requests in flight finish on the old one, nothing restarts</source>
        <translation>校验并启用此配置：处理中的请求在旧配置上完成，无需重启任何组件</translation>
    </message>
    <message>
        <source>No config yet. Open a config file, import a Bifrost config.json, start the demo, or type a config here.</source>
        <translation>尚无配置。请打开配置文件、导入 Bifrost 的 config.json、启动演示，或在此输入配置。</translation>
    </message>
    <message>
        <source>Form</source>
        <translation>表单</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>Click a problem to go to it in the text.</source>
        <translation>点击某个问题即可跳转到文本中的对应位置。</translation>
    </message>
    <message>
        <source>new config</source>
        <translation>新配置</translation>
    </message>
    <message>
        <source>Could not open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>No config yet.</source>
        <translation>尚无配置。</translation>
    </message>
    <message>
        <source>✔ No problems: ready to apply.</source>
        <translation>✔ 没有问题：可以应用。</translation>
    </message>
    <message>
        <source>Problems: %1. Apply waits until they are fixed; the running configuration stays.</source>
        <translation>问题数：%1。修复之前无法应用；继续使用当前运行的配置。</translation>
    </message>
    <message>
        <source>No config yet. Open a config file, import a Bifrost config.json or start the demo; the providers appear here.</source>
        <translation>尚无配置。请打开配置文件、导入 Bifrost 的 config.json 或启动演示；提供方会显示在这里。</translation>
    </message>
    <message>
        <source>The config must be a JSON object ({ … }) at the top level.</source>
        <translation>配置的顶层必须是 JSON 对象（{ … }）。</translation>
    </message>
    <message>
        <source>That change cannot be made in the text as it is; edit it in the JSON view.</source>
        <translation>按文本当前的写法无法进行该更改；请在 JSON 视图中编辑。</translation>
    </message>
    <message>
        <source>%1 (unsaved edits)</source>
        <translation>%1（有未保存的编辑）</translation>
    </message>
    <message>
        <source>%1 (edited)</source>
        <translation>%1（已编辑）</translation>
    </message>
    <message>
        <source>Not applied: there is no gateway to apply it to.</source>
        <translation>未应用：没有可应用到的网关。</translation>
    </message>
    <message>
        <source>Not applied: there is no config.</source>
        <translation>未应用：没有配置。</translation>
    </message>
    <message>
        <source>Not applied: the config has problems (%1, listed below). The running configuration stays.</source>
        <translation>未应用：配置有问题（%1 个，见下方列表）。继续使用当前运行的配置。</translation>
    </message>
    <message>
        <source>no changes</source>
        <translation>无更改</translation>
    </message>
    <message>
        <source>Applied at %1: %2. The new listen address cannot be used (%3); the gateway keeps its old one.</source>
        <translation>已于 %1 应用：%2。新的监听地址无法使用（%3）；网关继续使用原来的地址。</translation>
    </message>
    <message>
        <source>Applied at %1: %2.</source>
        <translation>已于 %1 应用：%2。</translation>
    </message>
    <message>
        <source>the current file cannot be read to back it up: %1</source>
        <translation>无法读取当前文件以进行备份：%1</translation>
    </message>
    <message>
        <source>the backup %1 cannot be written: %2</source>
        <translation>无法写入备份 %1：%2</translation>
    </message>
    <message>
        <source>Not saved: there is no config.</source>
        <translation>未保存：没有配置。</translation>
    </message>
    <message>
        <source>Not saved: the config has problems (%1, listed below); %2 is unchanged.</source>
        <translation>未保存：配置有问题（%1 个，见下方列表）；%2 未被修改。</translation>
    </message>
    <message>
        <source>Not saved: %1: %2</source>
        <translation>未保存：%1：%2</translation>
    </message>
    <message>
        <source>Saved %1 (the previous version is %2).</source>
        <translation>已保存 %1（上一版本为 %2）。</translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation>未导出：%1</translation>
    </message>
    <message>
        <source>Not exported: %1: %2</source>
        <translation>未导出：%1：%2</translation>
    </message>
    <message>
        <source>Exported for Bifrost to %1 (without the &quot;switchyard&quot; section; env.NAME references kept).</source>
        <translation>已将供 Bifrost 使用的配置导出到 %1（不含 &quot;switchyard&quot; 部分；保留 env.NAME 引用）。</translation>
    </message>
    <message>
        <source>Could not import %1: %2</source>
        <translation>无法导入 %1：%2</translation>
    </message>
    <message>
        <source>imported from %1</source>
        <translation>从 %1 导入</translation>
    </message>
    <message>
        <source>Imported %1 (providers: %2). Apply puts it into service; Save As keeps it as a Switchyard config.</source>
        <translation>已导入 %1（提供方：%2 个）。“应用”使其生效；“另存为”将其保存为 Switchyard 配置。</translation>
    </message>
    <message>
        <source>Imported %1; it has problems to fix before it can be applied (listed below).</source>
        <translation>已导入 %1；应用之前需要先修复其中的问题（见下方列表）。</translation>
    </message>
    <message>
        <source>Could not reload %1: %2</source>
        <translation>无法重新加载 %1：%2</translation>
    </message>
    <message>
        <source>Reloaded %1 from disk (Undo brings the previous text back). Apply puts it into service.</source>
        <translation>已从磁盘重新加载 %1（“撤销”可恢复之前的文本）。“应用”使其生效。</translation>
    </message>
    <message>
        <source>Unsaved config edits</source>
        <translation>未保存的配置编辑</translation>
    </message>
    <message>
        <source>Reloading replaces your unsaved edits to %1 with the file on disk.</source>
        <translation>重新加载会用磁盘上的文件替换你对 %1 的未保存编辑。</translation>
    </message>
    <message>
        <source>Undo brings them back afterwards.</source>
        <translation>之后可以用“撤销”恢复它们。</translation>
    </message>
    <message>
        <source>%1 has unsaved edits.</source>
        <translation>%1 有未保存的编辑。</translation>
    </message>
    <message>
        <source>Save them before quitting?</source>
        <translation>退出前是否保存？</translation>
    </message>
    <message>
        <source>Save them before opening another config?</source>
        <translation>打开其他配置前是否保存？</translation>
    </message>
    <message>
        <source>Config files (*.json);;All files (*)</source>
        <translation>配置文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open a config file</source>
        <translation>打开配置文件</translation>
    </message>
    <message>
        <source>Import a Bifrost config.json</source>
        <translation>导入 Bifrost 的 config.json</translation>
    </message>
    <message>
        <source>Save the config as</source>
        <translation>配置另存为</translation>
    </message>
    <message>
        <source>Export a Bifrost config</source>
        <translation>导出 Bifrost 配置</translation>
    </message>
    <message>
        <source>%1 is no longer on disk (deleted or renamed by another program). Save writes it again.</source>
        <translation>%1 已不在磁盘上（被其他程序删除或重命名）。“保存”会重新写入它。</translation>
    </message>
    <message>
        <source>%1 was changed by another program, and you have unsaved edits here. Reload asks first; Keep my version keeps the text as it is here.</source>
        <translation>%1 已被其他程序修改，而你在此处有未保存的编辑。“重新加载”会先询问；“保留我的版本”则保持此处的文本不变。</translation>
    </message>
    <message>
        <source>%1 was changed by another program.</source>
        <translation>%1 已被其他程序修改。</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Applied</source>
        <translation>已应用</translation>
    </message>
    <message>
        <source>No gateway to apply to.</source>
        <translation>没有可应用到的网关。</translation>
    </message>
    <message>
        <source>No config to apply.</source>
        <translation>没有可应用的配置。</translation>
    </message>
    <message>
        <source>Fix the problems listed below first.</source>
        <translation>请先修复下方列出的问题。</translation>
    </message>
    <message>
        <source>%1 (not a file yet: Save As writes one)</source>
        <translation>%1（尚不是文件：“另存为”会写入一个）</translation>
    </message>
    <message>
        <source>unsaved edits</source>
        <translation>有未保存的编辑</translation>
    </message>
    <message>
        <source>not applied</source>
        <translation>未应用</translation>
    </message>
    <message>
        <source>the gateway runs this config</source>
        <translation>网关正在运行此配置</translation>
    </message>
    <message>
        <source>edited since it was applied</source>
        <translation>应用后已有编辑</translation>
    </message>
    <message>
        <source>Not applied (%1): %2</source>
        <translation>未应用（%1）：%2</translation>
    </message>
    <message>
        <source>Not applied: the last Apply has not been answered yet.</source>
        <translation>未应用：上一次应用尚未得到回应。</translation>
    </message>
    <message>
        <source>Applying…</source>
        <translation>正在应用…</translation>
    </message>
    <message>
        <source>Waiting for the gateway&apos;s answer.</source>
        <translation>正在等待网关的回应。</translation>
    </message>
    <message>
        <source>The text is not valid JSON, so the form cannot show it:

%1

Fix it in the JSON view (the problem list below goes there); the form comes back as soon as the text reads.</source>
        <translation>文本不是有效的 JSON，表单无法显示：

%1

请在 JSON 视图中修正（下方的问题列表会跳转到那里）；文本一旦可读，表单即会恢复。</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::ConfigForm</name>
    <message>
        <source>Add provider</source>
        <translation>添加提供方</translation>
    </message>
    <message>
        <source>Remove provider</source>
        <translation>移除提供方</translation>
    </message>
    <message>
        <source>Add key</source>
        <translation>添加密钥</translation>
    </message>
    <message>
        <source>Remove key</source>
        <translation>移除密钥</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>提供方</translation>
    </message>
    <message>
        <source>double-click a cell to change it; each change is one step of Undo (Ctrl+Z).</source>
        <translation>双击单元格即可修改；每次修改都可单独撤销 (Ctrl+Z)。</translation>
    </message>
    <message>
        <source>Adds a provider with the models of the one above; fill in its base URL.</source>
        <translation>添加一个与上方提供方模型相同的提供方；请填写其基础 URL。</translation>
    </message>
    <message>
        <source>Gateway</source>
        <translation>网关</translation>
    </message>
    <message>
        <source>127.0.0.1:8080 (default)</source>
        <translation>127.0.0.1:8080（默认）</translation>
    </message>
    <message>
        <source>Where clients connect: HOST:PORT, [IPv6]:PORT, :PORT or PORT. A running gateway rebinds on Apply and keeps its old address if the new one cannot be used.</source>
        <translation>客户端连接的地址：HOST:PORT、[IPv6]:PORT、:PORT 或 PORT。运行中的网关会在应用时重新绑定；新地址无法使用时保留原地址。</translation>
    </message>
    <message>
        <source>weighted round robin (default)</source>
        <translation>加权轮询（默认）</translation>
    </message>
    <message>
        <source>Listen address:</source>
        <translation>监听地址：</translation>
    </message>
    <message>
        <source>Default routing strategy:</source>
        <translation>默认路由策略：</translation>
    </message>
    <message>
        <source>Keys of %1</source>
        <translation>%1 的密钥</translation>
    </message>
    <message>
        <source>values are hidden; env.NAME references are shown as written, never resolved.</source>
        <translation>值已隐藏；env.NAME 引用按原样显示，不会被解析。</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>密钥</translation>
    </message>
    <message>
        <source>%1 (from --listen)</source>
        <translation>%1（来自 --listen）</translation>
    </message>
    <message>
        <source>The panel was started with --listen %1, which overrides this field.</source>
        <translation>面板以 --listen %1 启动，它覆盖此字段。</translation>
    </message>
    <message>
        <source>The panel was started with --listen %1, which overrides this field; the gateway listens on %2.</source>
        <translation>面板以 --listen %1 启动，它覆盖此字段；网关监听于 %2。</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::ConnectDialog</name>
    <message>
        <source>&amp;Remember the key in the desktop&apos;s secret store</source>
        <translation>在桌面密钥库中记住此密钥(&amp;R)</translation>
    </message>
    <message>
        <source>Connect to Gateway</source>
        <translation>连接到网关</translation>
    </message>
    <message>
        <source>Watch and steer a Switchyard gateway that runs elsewhere, e.g. headless on a server, over its management API.</source>
        <translation>通过管理 API 监视和控制在别处运行的 Switchyard 网关，例如在服务器上以无界面模式运行的网关。</translation>
    </message>
    <message>
        <source>One of the gateway&apos;s admin_keys</source>
        <translation>网关的 admin_keys 之一</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Show or hide the key</source>
        <translation>显示或隐藏密钥</translation>
    </message>
    <message>
        <source>Recent &amp;gateways:</source>
        <translation>最近的网关(&amp;G)：</translation>
    </message>
    <message>
        <source>None yet: the gateways you connect to are listed here.</source>
        <translation>暂无：你连接过的网关会列在这里。</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Address:</source>
        <translation>地址(&amp;A)：</translation>
    </message>
    <message>
        <source>Admin &amp;key:</source>
        <translation>管理密钥(&amp;K)：</translation>
    </message>
    <message>
        <source>Looking up the remembered key…</source>
        <translation>正在查找已记住的密钥…</translation>
    </message>
    <message>
        <source>No key remembered for this gateway</source>
        <translation>没有为此网关记住密钥</translation>
    </message>
    <message>
        <source>Keys are kept for this session only.</source>
        <translation>密钥仅在本次会话中保留。</translation>
    </message>
    <message>
        <source>Otherwise the key is kept until Switchyard quits.</source>
        <translation>否则密钥保留到 Switchyard 退出为止。</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::CredentialStore</name>
    <message>
        <source>The secret store did not answer within %1 s.</source>
        <translation>密钥库在 %1 秒内没有响应。</translation>
    </message>
    <message>
        <source>No secret store is available (%1). Keys are kept for this session only.</source>
        <translation>没有可用的密钥库（%1）。密钥仅在本次会话中保留。</translation>
    </message>
    <message>
        <source>The secret store refused to keep the key (%1). It is kept for this session only.</source>
        <translation>密钥库拒绝保存此密钥（%1）。它仅在本次会话中保留。</translation>
    </message>
    <message>
        <source>No secret store is available: no desktop keyring (Secret Service or KWallet) answered over D-Bus. Keys are kept for this session only.</source>
        <translation>没有可用的密钥库：没有桌面密钥环（Secret Service 或 KWallet）通过 D-Bus 响应。密钥仅在本次会话中保留。</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::EventLoopLagProbe</name>
    <message numerus="yes">
        <source>Event-loop lag over the last %n tick(s) of %1 ms: p50 %2 ms, p99 %3 ms, max %4 ms</source>
        <translation>
            <numerusform>最近 %n 次 %1 毫秒计时中的事件循环延迟：p50 %2 毫秒，p99 %3 毫秒，最大 %4 毫秒</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>switchyard::ui::FleetFormat</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation>连接中</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>Unreachable</source>
        <translation>无法访问</translation>
    </message>
    <message>
        <source>Wrong or missing admin key</source>
        <translation>管理密钥错误或缺失</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>被拒绝</translation>
    </message>
    <message>
        <source>Incompatible</source>
        <translation>不兼容</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::FleetNodesModel</name>
    <message>
        <source>%1 on %2 of %3</source>
        <translation>%3 个网关中 %2 个为%1</translation>
    </message>
    <message>
        <source>%1, draining</source>
        <translation>%1，排空中</translation>
    </message>
    <message>
        <source>%1 (last known)</source>
        <translation>%1（最后已知）</translation>
    </message>
    <message>
        <source>%1 does not route to this node.</source>
        <translation>%1 不会路由到此节点。</translation>
    </message>
    <message>
        <source>%1 calls it %2: %3</source>
        <translation>%1 称其为 %2：%3</translation>
    </message>
    <message>
        <source>In flight %1, %2 requests/s, p95 %3</source>
        <translation>处理中 %1，%2 请求/秒，p95 %3</translation>
    </message>
    <message>
        <source>The gateway is not reachable now: this is the last it said.</source>
        <translation>目前无法访问该网关：这是它最后报告的内容。</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>处理中</translation>
    </message>
    <message>
        <source>Requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>p95</source>
        <translation>p95</translation>
    </message>
    <message>
        <source>The worst state any gateway sees, and on how many of the gateways that route to the node</source>
        <translation>任一网关看到的最差状态，以及路由到此节点的网关中有几个看到该状态</translation>
    </message>
    <message>
        <source>Summed over the gateways</source>
        <translation>各网关之和</translation>
    </message>
    <message>
        <source>The highest of the gateways&apos; p95 over the last minute</source>
        <translation>最近一分钟内各网关 p95 的最大值</translation>
    </message>
    <message>
        <source>The node as %1 sees it</source>
        <translation>%1 看到的此节点</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::FormDelegate</name>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>new secret, or env.NAME (empty keeps the current value)</source>
        <translation>新密钥，或 env.NAME（留空则保留当前值）</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::GatewayBanner</name>
    <message>
        <source>The gateway is off (since %1).</source>
        <translation>网关已关闭（自 %1 起）。</translation>
    </message>
    <message>
        <source>It takes no requests; start it on its server.</source>
        <translation>它不接受请求；请在其服务器上启动它。</translation>
    </message>
    <message>
        <source>No nodes are configured yet: start the demo or open a config, and the gateway starts with it.</source>
        <translation>尚未配置节点：启动演示或打开配置，网关会随之启动。</translation>
    </message>
    <message>
        <source>It could not start (the reason is below); clients cannot connect and no requests reach the nodes.</source>
        <translation>它无法启动（原因见下方）；客户端无法连接，也没有请求到达节点。</translation>
    </message>
    <message>
        <source>Clients cannot connect, and no requests reach the nodes.</source>
        <translation>客户端无法连接，也没有请求到达节点。</translation>
    </message>
    <message>
        <source>Start gateway</source>
        <translation>启动网关</translation>
    </message>
    <message>
        <source>Not receiving traffic: the gateway is off</source>
        <translation>未接收流量：网关已关闭</translation>
    </message>
    <message>
        <source>The gateway is stopping (since %1).</source>
        <translation>网关正在停止（自 %1 起）。</translation>
    </message>
    <message>
        <source>New requests are refused; the requests in flight (%1) finish first.</source>
        <translation>新请求被拒绝；正在处理的请求（%1 个）会先完成。</translation>
    </message>
    <message>
        <source>Not receiving new traffic: the gateway is stopping</source>
        <translation>未接收新流量：网关正在停止</translation>
    </message>
    <message>
        <source>The gateway is paused (since %1).</source>
        <translation>网关已暂停（自 %1 起）。</translation>
    </message>
    <message>
        <source>New requests get 503 (with Retry-After) and do not reach the nodes; requests in flight finish.</source>
        <translation>新请求收到 503（附 Retry-After），不会到达节点；正在处理的请求会完成。</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Not receiving traffic: the gateway is paused</source>
        <translation>未接收流量：网关已暂停</translation>
    </message>
    <message>
        <source>The panel cannot see the gateway (since %1).</source>
        <translation>面板看不到网关（自 %1 起）。</translation>
    </message>
    <message>
        <source>The nodes below are what it reported last.</source>
        <translation>下方的节点是它最后报告的状态。</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::GatewayIndicator</name>
    <message>
        <source>Gateway off</source>
        <translation>网关已关闭</translation>
    </message>
    <message>
        <source>Gateway draining</source>
        <translation>网关排空中</translation>
    </message>
    <message>
        <source>Gateway failed to start</source>
        <translation>网关启动失败</translation>
    </message>
    <message>
        <source>Gateway on</source>
        <translation>网关已开启</translation>
    </message>
    <message>
        <source>Gateway on, a node is degraded</source>
        <translation>网关已开启，有节点性能下降</translation>
    </message>
    <message>
        <source>Gateway on, a node is down</source>
        <translation>网关已开启，有节点宕机</translation>
    </message>
    <message>
        <source>Gateway paused</source>
        <translation>网关已暂停</translation>
    </message>
    <message>
        <source>Connecting to the gateway</source>
        <translation>正在连接网关</translation>
    </message>
    <message>
        <source>Gateway not reachable</source>
        <translation>无法连接网关</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::GatewayUrl</name>
    <message>
        <source>Enter the gateway&apos;s address, like https://gateway.example:8080.</source>
        <translation>请输入网关地址，例如 https://gateway.example:8080。</translation>
    </message>
    <message>
        <source>This is not a valid address: %1</source>
        <translation>这不是有效的地址：%1</translation>
    </message>
    <message>
        <source>The address must start with http:// or https://, not %1://.</source>
        <translation>地址必须以 http:// 或 https:// 开头，而不是 %1://。</translation>
    </message>
    <message>
        <source>The address has no host name.</source>
        <translation>地址中没有主机名。</translation>
    </message>
    <message>
        <source>Put the admin key in the key field, not in the address.</source>
        <translation>请将管理密钥填在密钥栏中，而不是地址中。</translation>
    </message>
    <message>
        <source>The port must be between 1 and 65535.</source>
        <translation>端口必须在 1 到 65535 之间。</translation>
    </message>
    <message>
        <source>Give the gateway&apos;s address without a path (the panel adds /api/…).</source>
        <translation>请给出不带路径的网关地址（面板会自行加上 /api/…）。</translation>
    </message>
    <message>
        <source>Give the gateway&apos;s address without a query or fragment.</source>
        <translation>请给出不带查询或片段的网关地址。</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::GatewaysModel</name>
    <message>
        <source>%1 runs %2</source>
        <translation>%1 运行 %2</translation>
    </message>
    <message>
        <source>The gateways run different configs: %1.</source>
        <translation>各网关运行的配置不同：%1。</translation>
    </message>
    <message>
        <source>This gateway runs config %1, unlike %2 (%3).</source>
        <translation>此网关运行配置 %1，与 %2（%3）不同。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Config %1; another config runs on %2.</source>
        <translation>配置 %1；%2 运行的是另一份配置。</translation>
    </message>
    <message>
        <source>Connected, gateway off</source>
        <translation>已连接，网关已关闭</translation>
    </message>
    <message>
        <source>Connected, stopping</source>
        <translation>已连接，正在停止</translation>
    </message>
    <message>
        <source>Connected, paused</source>
        <translation>已连接，已暂停</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 (differs)</source>
        <translation>%1（不同）</translation>
    </message>
    <message>
        <source>%1/%2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <source>Last answer at %1</source>
        <translation>最后响应于 %1</translation>
    </message>
    <message>
        <source>Next try in %1 s</source>
        <translation>%1 秒后重试</translation>
    </message>
    <message>
        <source>The numbers shown are the last ones it sent.</source>
        <translation>显示的数字是它最后发送的数据。</translation>
    </message>
    <message>
        <source>Config %1</source>
        <translation>配置 %1</translation>
    </message>
    <message>
        <source>Over the last %1 s: p50 %2, p95 %3; time to first token p95 %4</source>
        <translation>最近 %1 秒：p50 %2，p95 %3；首个 token 时间 p95 %4</translation>
    </message>
    <message>
        <source>Per second over the last %1 s</source>
        <translation>最近 %1 秒内的每秒值</translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1：%2（%3）</translation>
    </message>
    <message>
        <source>Every node is up</source>
        <translation>所有节点均在线</translation>
    </message>
    <message>
        <source>Gateway</source>
        <translation>网关</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Config</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>Errors/s</source>
        <translation>错误/秒</translation>
    </message>
    <message>
        <source>p95</source>
        <translation>p95</translation>
    </message>
    <message>
        <source>Nodes up</source>
        <translation>在线节点</translation>
    </message>
    <message>
        <source>Whether the panel reaches the gateway, and why not</source>
        <translation>面板能否访问该网关，以及不能的原因</translation>
    </message>
    <message>
        <source>The running config&apos;s hash; marked where gateways run different configs</source>
        <translation>正在运行的配置的哈希；各网关配置不同时会标出</translation>
    </message>
    <message>
        <source>End-to-end latency, 95th percentile, last minute</source>
        <translation>端到端延迟，第 95 百分位，最近一分钟</translation>
    </message>
    <message>
        <source>Nodes healthy or degraded, of all the gateway&apos;s nodes</source>
        <translation>网关全部节点中健康或性能下降（仍在服务）的节点数</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::GatewaysView</name>
    <message>
        <source>No gateway is watched yet: File ▸ Connect to gateway… adds one.</source>
        <translation>尚未监视任何网关：通过“文件 ▸ 连接到网关…”添加。</translation>
    </message>
    <message>
        <source>Gateways</source>
        <translation>网关</translation>
    </message>
    <message>
        <source>Nodes across the gateways</source>
        <translation>各网关的节点</translation>
    </message>
    <message>
        <source>Open the fleet in one window</source>
        <translation>在一个窗口中打开整个集群</translation>
    </message>
    <message>
        <source>One window for every remote gateway watched here: their nodes once each, their charts summed, their requests merged by time; drain, probe and config apply to all of them.</source>
        <translation>一个窗口涵盖此处监视的所有远程网关：每个节点只显示一次，图表相加，请求按时间合并；排空、探测和配置作用于所有网关。</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::HistoryCharts</name>
    <message>
        <source>Requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>Output tokens/s</source>
        <translation>输出 Token/秒</translation>
    </message>
    <message>
        <source>Latency (s)</source>
        <translation>延迟（秒）</translation>
    </message>
    <message>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/秒</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>failed requests/s (5xx or cut)</source>
        <translation>失败请求/秒（5xx 或中断）</translation>
    </message>
    <message>
        <source>output tokens/s</source>
        <translation>输出 token/秒</translation>
    </message>
    <message>
        <source>mean latency</source>
        <translation>平均延迟</translation>
    </message>
    <message>
        <source>mean time to first token</source>
        <translation>平均首 token 时间</translation>
    </message>
    <message>
        <source>Reading the gateway&apos;s history…</source>
        <translation>正在读取网关的历史记录…</translation>
    </message>
    <message>
        <source>From the gateway&apos;s history: %1 requests in the last %2, in %3-minute sums; refreshed every minute.</source>
        <translation>来自网关的历史记录：最近 %2 内共 %1 个请求，按 %3 分钟汇总；每分钟刷新。</translation>
    </message>
    <message>
        <source>24 hours</source>
        <translation>24 小时</translation>
    </message>
    <message>
        <source>7 days</source>
        <translation>7 天</translation>
    </message>
    <message>
        <source>The whole gateway</source>
        <translation>整个网关</translation>
    </message>
    <message>
        <source>Each node</source>
        <translation>每个节点</translation>
    </message>
    <message>
        <source>Each model</source>
        <translation>每个模型</translation>
    </message>
    <message>
        <source>Each key</source>
        <translation>每个密钥</translation>
    </message>
    <message>
        <source>Lines for:</source>
        <translation>曲线：</translation>
    </message>
    <message>
        <source>all others</source>
        <translation>其余全部</translation>
    </message>
    <message>
        <source>no key</source>
        <translation>无密钥</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::HistorySearchView</name>
    <message>
        <source>&amp;Search</source>
        <translation>搜索(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Older ›</source>
        <translation>更早(&amp;O) ›</translation>
    </message>
    <message>
        <source>Export &amp;CSV…</source>
        <translation>导出 CSV(&amp;C)…</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>最近 1 小时</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <source>Everything kept</source>
        <translation>保留的全部记录</translation>
    </message>
    <message>
        <source>From … to …</source>
        <translation>从 … 到 …</translation>
    </message>
    <message>
        <source>any key (vk_…)</source>
        <translation>任意密钥（vk_…）</translation>
    </message>
    <message>
        <source>any model</source>
        <translation>任意模型</translation>
    </message>
    <message>
        <source>any node</source>
        <translation>任意节点</translation>
    </message>
    <message>
        <source>An exact name; empty matches every one.</source>
        <translation>精确名称；留空则匹配全部。</translation>
    </message>
    <message>
        <source>Any outcome</source>
        <translation>任意结果</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Client errors (4xx)</source>
        <translation>客户端错误（4xx）</translation>
    </message>
    <message>
        <source>Server errors (5xx)</source>
        <translation>服务器错误（5xx）</translation>
    </message>
    <message>
        <source>Failed (5xx or cut mid-answer)</source>
        <translation>失败（5xx 或回答中途中断）</translation>
    </message>
    <message>
        <source>The next %1 older requests of this search</source>
        <translation>本次搜索中接下来 %1 个更早的请求</translation>
    </message>
    <message>
        <source>Every row shown, as CSV for a spreadsheet (UTC times)</source>
        <translation>显示的所有行，导出为电子表格用的 CSV（UTC 时间）</translation>
    </message>
    <message>
        <source>Started:</source>
        <translation>开始时间：</translation>
    </message>
    <message>
        <source>Search every request this gateway kept on disk (switchyard.history), beyond the live log&apos;s last few thousand.</source>
        <translation>搜索此网关保存在磁盘上的每个请求（switchyard.history），不限于实时日志中的最近几千条。</translation>
    </message>
    <message>
        <source>The start of the range is after its end.</source>
        <translation>时间范围的开始晚于结束。</translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <source>1 request shown</source>
        <translation>显示 1 个请求</translation>
    </message>
    <message>
        <source>%1 requests shown, newest first</source>
        <translation>显示 %1 个请求，最新的在前</translation>
    </message>
    <message>
        <source>more match: narrow the search, or page on through the API (docs/HISTORY.md)</source>
        <translation>还有更多匹配：请缩小搜索范围，或通过 API 继续翻页（docs/HISTORY.md）</translation>
    </message>
    <message>
        <source>more match: Older shows the next %1</source>
        <translation>还有更多匹配：“更早”显示接下来的 %1 个</translation>
    </message>
    <message>
        <source>Export the history shown as CSV</source>
        <translation>将显示的历史记录导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>%1 rows written to %2</source>
        <translation>已将 %1 行写入 %2</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::KeyDialog</name>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>New virtual key</source>
        <translation>新建虚拟密钥</translation>
    </message>
    <message>
        <source>Make key</source>
        <translation>创建密钥</translation>
    </message>
    <message>
        <source>Limits of %1</source>
        <translation>%1 的限额</translation>
    </message>
    <message>
        <source>whom or what it is for, e.g. ci-pipeline</source>
        <translation>给谁或什么用，例如 ci-pipeline</translation>
    </message>
    <message>
        <source>all models</source>
        <translation>所有模型</translation>
    </message>
    <message>
        <source>The models the key may ask for, as clients name them, separated by commas. Empty: every model.</source>
        <translation>此密钥可请求的模型（按客户端的叫法），以逗号分隔。留空：所有模型。</translation>
    </message>
    <message>
        <source>all providers</source>
        <translation>所有提供方</translation>
    </message>
    <message>
        <source>The providers (nodes) its requests may reach, separated by commas; routing chooses only among these. Empty: every provider.</source>
        <translation>其请求可到达的提供方（节点），以逗号分隔；路由只在这些之中选择。留空：所有提供方。</translation>
    </message>
    <message>
        <source> req/min</source>
        <translation> 请求/分钟</translation>
    </message>
    <message>
        <source> tokens/min</source>
        <translation> token/分钟</translation>
    </message>
    <message>
        <source> tokens/day</source>
        <translation> token/天</translation>
    </message>
    <message>
        <source>Prompt and completion tokens in the current UTC day.</source>
        <translation>当前 UTC 日内的提示与补全 token。</translation>
    </message>
    <message>
        <source> at once</source>
        <translation> 个同时</translation>
    </message>
    <message>
        <source>Requests in flight at once.</source>
        <translation>同时处理中的请求数。</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>到期</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Models:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;Providers:</source>
        <translation>提供方(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Requests per minute:</source>
        <translation>每分钟请求数(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Tokens per minute:</source>
        <translation>每分钟 token(&amp;T)：</translation>
    </message>
    <message>
        <source>Tokens per &amp;day:</source>
        <translation>每天 token(&amp;D)：</translation>
    </message>
    <message>
        <source>&amp;At once:</source>
        <translation>同时请求(&amp;A)：</translation>
    </message>
    <message>
        <source>Expiry:</source>
        <translation>到期时间：</translation>
    </message>
    <message>
        <source>0 means no limit. A request over a limit gets 429 and reaches no node; tokens are counted when an answer ends.</source>
        <translation>0 表示不限。超过限额的请求得到 429，不会到达任何节点；token 在回答结束时计入。</translation>
    </message>
    <message>
        <source>A key needs a name: whom or what it is for.</source>
        <translation>密钥需要一个名称：给谁或什么用。</translation>
    </message>
    <message>
        <source>The expiry is in the past.</source>
        <translation>到期时间已经过去。</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::KeysModel</name>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Read from the environment variable %1 when the config is applied.</source>
        <translation>应用配置时从环境变量 %1 读取。</translation>
    </message>
    <message>
        <source>A literal secret, hidden here. An env.NAME reference keeps it out of the file.</source>
        <translation>直接写入的密钥，此处已隐藏。使用 env.NAME 引用可使其不出现在文件中。</translation>
    </message>
    <message>
        <source>Key name</source>
        <translation>密钥名称</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>启用</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::KeysView</name>
    <message>
        <source>New key…</source>
        <translation>新建密钥…</translation>
    </message>
    <message>
        <source>Prompt tokens</source>
        <translation>提示 token</translation>
    </message>
    <message>
        <source>Completion tokens</source>
        <translation>补全 token</translation>
    </message>
    <message>
        <source>&amp;New key…</source>
        <translation>新建密钥(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Edit limits…</source>
        <translation>编辑限额(&amp;E)…</translation>
    </message>
    <message>
        <source>Re&amp;voke…</source>
        <translation>吊销(&amp;V)…</translation>
    </message>
    <message>
        <source>Make a virtual key with limits of its own; its secret is shown once.</source>
        <translation>创建一个有自己限额的虚拟密钥；其密文只显示一次。</translation>
    </message>
    <message>
        <source>Change the selected key&apos;s name, models, providers, limits or expiry.</source>
        <translation>更改所选密钥的名称、模型、提供方、限额或到期时间。</translation>
    </message>
    <message>
        <source>Refuse the selected key from its next request on.</source>
        <translation>从下一个请求起拒绝所选密钥。</translation>
    </message>
    <message>
        <source>Virtual keys</source>
        <translation>虚拟密钥</translation>
    </message>
    <message>
        <source>Tokens per key (top %1)</source>
        <translation>各密钥的 token（前 %1 个）</translation>
    </message>
    <message>
        <source>Key %1 (%2) made.</source>
        <translation>已创建密钥 %1（%2）。</translation>
    </message>
    <message>
        <source>The gateway did not list its keys.</source>
        <translation>网关没有列出其密钥。</translation>
    </message>
    <message>
        <source>The key was not made: %1</source>
        <translation>密钥未创建：%1</translation>
    </message>
    <message>
        <source>Key %1 changed.</source>
        <translation>密钥 %1 已更改。</translation>
    </message>
    <message>
        <source>Key %1 was not changed: %2</source>
        <translation>密钥 %1 未更改：%2</translation>
    </message>
    <message>
        <source>Key %1 revoked: requests with its secret get 401 from now on.</source>
        <translation>密钥 %1 已吊销：从现在起使用其密文的请求得到 401。</translation>
    </message>
    <message>
        <source>Key %1 was not revoked: %2</source>
        <translation>密钥 %1 未吊销：%2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>No gateway.</source>
        <translation>没有网关。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Keys cannot be shown here.&lt;/b&gt;&lt;br&gt;%1</source>
        <translation>&lt;b&gt;此处无法显示密钥。&lt;/b&gt;&lt;br&gt;%1</translation>
    </message>
    <message>
        <source>Asking the gateway for its keys…</source>
        <translation>正在向网关获取其密钥…</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No virtual keys yet.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;A virtual key is one person&apos;s or one service&apos;s key to the gateway&apos;s OpenAI endpoints, with limits of its own: requests and tokens per minute, tokens per day, requests at once, and the models and providers it may use. The gateway counts what each key uses.&lt;/p&gt;&lt;p&gt;Its secret is shown once, when it is made. While any key is active, the OpenAI endpoints need a key.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;还没有虚拟密钥。&lt;/b&gt;&lt;/p&gt;&lt;p&gt;虚拟密钥是某个人或某个服务访问网关 OpenAI 端点的密钥，有自己的限额：每分钟的请求数和 token、每天的 token、同时请求数，以及可使用的模型和提供方。网关会统计每个密钥的用量。&lt;/p&gt;&lt;p&gt;其密文只在创建时显示一次。只要有任何密钥处于有效状态，OpenAI 端点就需要密钥。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Nothing changed.</source>
        <translation>没有更改。</translation>
    </message>
    <message>
        <source>Revoke key</source>
        <translation>吊销密钥</translation>
    </message>
    <message>
        <source>Revoke the key %1 (%2)?</source>
        <translation>吊销密钥 %1（%2）？</translation>
    </message>
    <message>
        <source>Requests with its secret get 401 from the next one on. A revoked key stays listed with its usage, and cannot be used or changed again.</source>
        <translation>从下一个请求起，使用其密文的请求得到 401。已吊销的密钥仍连同其用量列出，但不能再使用或更改。</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>吊销</translation>
    </message>
    <message>
        <source>Tokens per key: none used yet</source>
        <translation>各密钥的 token：尚未使用</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::LinkState</name>
    <message>
        <source>Connecting</source>
        <translation>连接中</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>Unreachable</source>
        <translation>无法访问</translation>
    </message>
    <message>
        <source>Unauthorized (no or a wrong admin key)</source>
        <translation>未授权（没有管理密钥或密钥错误）</translation>
    </message>
    <message>
        <source>Forbidden (not an admin key)</source>
        <translation>禁止访问（不是管理密钥）</translation>
    </message>
    <message>
        <source>Incompatible gateway</source>
        <translation>网关不兼容</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>(next try in %1 s)</source>
        <translation>（%1 秒后重试）</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::MainWindow</name>
    <message>
        <source>Switchyard</source>
        <translation>Switchyard</translation>
    </message>
    <message>
        <source>&amp;Nodes</source>
        <translation>节点(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Charts</source>
        <translation>图表(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Requests</source>
        <translation>请求(&amp;R)</translation>
    </message>
    <message>
        <source>Con&amp;fig</source>
        <translation>配置(&amp;F)</translation>
    </message>
    <message>
        <source>C&amp;hat</source>
        <translation>对话(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Benchmark</source>
        <translation>基准测试(&amp;B)</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open config…</source>
        <translation>打开配置(&amp;O)…</translation>
    </message>
    <message>
        <source>Start the &amp;demo</source>
        <translation>启动演示(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Add nodes…</source>
        <translation>添加节点(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Gateway</source>
        <translation>网关(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Gateway on</source>
        <translation>网关已开启(&amp;G)</translation>
    </message>
    <message>
        <source>Switch the gateway on or off (Ctrl+G). Off lets requests in flight finish.</source>
        <translation>开启或关闭网关 (Ctrl+G)。关闭时，处理中的请求会继续完成。</translation>
    </message>
    <message>
        <source>&amp;Copy gateway URL</source>
        <translation>复制网关 URL(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Filter requests</source>
        <translation>筛选请求(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Switchyard</source>
        <translation>关于 Switchyard(&amp;A)</translation>
    </message>
    <message>
        <source>About Switchyard</source>
        <translation>关于 Switchyard</translation>
    </message>
    <message>
        <source>Gateway</source>
        <translation>网关</translation>
    </message>
    <message>
        <source>Show the panel</source>
        <translation>显示面板</translation>
    </message>
    <message>
        <source>Config written to %1</source>
        <translation>配置已写入 %1</translation>
    </message>
    <message>
        <source>The language changes the next time Switchyard starts.</source>
        <translation>语言将在下次启动 Switchyard 时更改。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 cannot be used&lt;/b&gt; (problems: %2); the running configuration stays.</source>
        <translation>&lt;b&gt;%1 无法使用&lt;/b&gt;（问题数：%2）；继续使用当前运行的配置。</translation>
    </message>
    <message>
        <source>Open a config file</source>
        <translation>打开配置文件</translation>
    </message>
    <message>
        <source>Config files (*.json);;All files (*)</source>
        <translation>配置文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>--listen %1: %2</source>
        <translation>--listen %1：%2</translation>
    </message>
    <message>
        <source>The new listen address cannot be used.</source>
        <translation>新的监听地址无法使用。</translation>
    </message>
    <message>
        <source>The gateway keeps listening on %1.</source>
        <translation>网关继续监听 %1。</translation>
    </message>
    <message>
        <source>Configuration applied: %1</source>
        <translation>配置已应用：%1</translation>
    </message>
    <message>
        <source>Another program is already using this address. Stop it, or pick another port with --listen HOST:PORT or in the config&apos;s &quot;switchyard&quot; section, then switch the gateway on again.</source>
        <translation>另一个程序已占用此地址。请停止该程序，或通过 --listen HOST:PORT 或配置中的 &quot;switchyard&quot; 部分换一个端口，然后重新开启网关。</translation>
    </message>
    <message>
        <source>Ports below 1024 need extra privileges: pick a port above 1024.</source>
        <translation>1024 以下的端口需要额外权限：请选择 1024 以上的端口。</translation>
    </message>
    <message>
        <source>Fix the listen address, then switch the gateway on again.</source>
        <translation>请修正监听地址，然后重新开启网关。</translation>
    </message>
    <message>
        <source>The gateway could not start.</source>
        <translation>网关无法启动。</translation>
    </message>
    <message>
        <source>The panel keeps working meanwhile.</source>
        <translation>在此期间面板仍可正常使用。</translation>
    </message>
    <message>
        <source>The gateway could not start: %1</source>
        <translation>网关无法启动：%1</translation>
    </message>
    <message>
        <source>Gateway draining…</source>
        <translation>网关排空中…</translation>
    </message>
    <message>
        <source>&amp;Gateway off</source>
        <translation>网关已关闭(&amp;G)</translation>
    </message>
    <message>
        <source>Switchyard: %1</source>
        <translation>Switchyard：%1</translation>
    </message>
    <message>
        <source>Nodes: %1, down: %2, degraded: %3</source>
        <translation>节点：%1，宕机：%2，性能下降：%3</translation>
    </message>
    <message>
        <source>A node is down.</source>
        <translation>有节点宕机。</translation>
    </message>
    <message>
        <source>%1 req/s · %2 errors/s · %3 tokens/s · %4 in flight</source>
        <translation>%1 请求/秒 · %2 错误/秒 · %3 Token/秒 · %4 个处理中</translation>
    </message>
    <message>
        <source>Quit Switchyard</source>
        <translation>退出 Switchyard</translation>
    </message>
    <message>
        <source>Let them finish (up to %1 s), or cut them now?</source>
        <translation>让它们完成（最多 %1 秒），还是立即中断？</translation>
    </message>
    <message>
        <source>Let them finish, then quit</source>
        <translation>等它们完成后退出</translation>
    </message>
    <message>
        <source>Quit now</source>
        <translation>立即退出</translation>
    </message>
    <message>
        <source>Letting the requests in flight (%1) finish before quitting…</source>
        <translation>正在等待处理中的请求（%1 个）完成后退出…</translation>
    </message>
    <message>
        <source>Switchyard[*]</source>
        <translation>Switchyard[*]</translation>
    </message>
    <message>
        <source>no changes</source>
        <translation>无更改</translation>
    </message>
    <message>
        <source>&amp;Save config</source>
        <translation>保存配置(&amp;S)</translation>
    </message>
    <message>
        <source>Save config &amp;as…</source>
        <translation>配置另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Import a Bifrost config…</source>
        <translation>导入 Bifrost 配置(&amp;I)…</translation>
    </message>
    <message>
        <source>&amp;Export for Bifrost…</source>
        <translation>导出为 Bifrost 配置(&amp;E)…</translation>
    </message>
    <message>
        <source>The file is open in the Config tab: fix it there, then Apply.</source>
        <translation>该文件已在“配置”标签页中打开：请在那里修正，然后应用。</translation>
    </message>
    <message>
        <source>Switchyard — %1[*]</source>
        <translation>Switchyard — %1[*]</translation>
    </message>
    <message>
        <source>The gateway is reachable from the network without API keys.</source>
        <translation>网关无需 API 密钥即可从网络访问。</translation>
    </message>
    <message>
        <source>Anyone who can reach %1 can use your nodes (switchyard.allow_unauthenticated_network_access is true). Set switchyard.api_keys to require a key.</source>
        <translation>任何能访问 %1 的人都可以使用你的节点（switchyard.allow_unauthenticated_network_access 为 true）。设置 switchyard.api_keys 以要求提供密钥。</translation>
    </message>
    <message>
        <source>A config arrived over the API but was not applied: %1</source>
        <translation>通过 API 收到了一份配置，但未应用：%1</translation>
    </message>
    <message>
        <source>A config arrived over the API (PUT /api/config) and was applied: %1</source>
        <translation>通过 API（PUT /api/config）收到了一份配置并已应用：%1</translation>
    </message>
    <message>
        <source>Gateway: %1</source>
        <translation>网关：%1</translation>
    </message>
    <message>
        <source>A remote gateway, seen over its management API</source>
        <translation>远程网关，通过其管理 API 查看</translation>
    </message>
    <message>
        <source>The gateway running inside this panel</source>
        <translation>在此面板内运行的网关</translation>
    </message>
    <message>
        <source>Switchyard — %1 — %2[*]</source>
        <translation>Switchyard — %1 — %2[*]</translation>
    </message>
    <message>
        <source>&amp;Gateway paused</source>
        <translation>网关已暂停(&amp;G)</translation>
    </message>
    <message>
        <source>Pause or resume the remote gateway (Ctrl+G). Paused, it answers new requests with 503; requests in flight finish.</source>
        <translation>暂停或恢复远程网关 (Ctrl+G)。暂停时，新请求会收到 503；处理中的请求会继续完成。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; did not succeed: %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 未成功：%2</translation>
    </message>
    <message>
        <source>Gate&amp;ways</source>
        <translation>网关列表(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Connect to gateway…</source>
        <translation>连接到网关(&amp;C)…</translation>
    </message>
    <message>
        <source>Ne&amp;xt tab</source>
        <translation>下一个标签页(&amp;X)</translation>
    </message>
    <message>
        <source>Pre&amp;vious tab</source>
        <translation>上一个标签页(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Switchyard %1&lt;/b&gt;&lt;p&gt;A control panel with an embedded OpenAI-compatible gateway for self-hosted LLM nodes.&lt;/p&gt;&lt;p&gt;Documentation: &lt;a href=&quot;%2&quot;&gt;%2&lt;/a&gt;&lt;/p&gt;</source>
        <translation>&lt;b&gt;Switchyard %1&lt;/b&gt;&lt;p&gt;为自托管 LLM 节点提供内嵌 OpenAI 兼容网关的控制面板。&lt;/p&gt;&lt;p&gt;文档：&lt;a href=&quot;%2&quot;&gt;%2&lt;/a&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>The panel cannot see the gateway now</source>
        <translation>面板现在看不到网关</translation>
    </message>
    <message>
        <source>The gateway stops with the panel. Requests in flight through it: %1.</source>
        <translation>网关会随面板一起停止。正在经过它的请求：%1 个。</translation>
    </message>
    <message>
        <source>The gateway stops with the panel: clients using it get no answer until it runs again.</source>
        <translation>网关会随面板一起停止：使用它的客户端在它再次运行前得不到回答。</translation>
    </message>
    <message>
        <source>To keep a gateway running without the panel, run it headless: switchyard --headless --config FILE (see the documentation).</source>
        <translation>若要在没有面板的情况下保持网关运行，请以无界面模式运行：switchyard --headless --config FILE（参见文档）。</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>The gateway is paused: new requests get 503 until you resume it</source>
        <translation>网关已暂停：在恢复之前，新请求会收到 503</translation>
    </message>
    <message>
        <source>The gateway accepts requests again</source>
        <translation>网关重新接受请求</translation>
    </message>
    <message>
        <source>The gateway stopped</source>
        <translation>网关已停止</translation>
    </message>
    <message>
        <source>The gateway started</source>
        <translation>网关已启动</translation>
    </message>
    <message>
        <source>&amp;Keys</source>
        <translation>密钥(&amp;K)</translation>
    </message>
    <message>
        <source>Request history: %1</source>
        <translation>请求历史：%1</translation>
    </message>
    <message numerus="yes">
        <source>Request history: %n record(s) could not be written in time (the disk is behind); the requests themselves were served</source>
        <translation>
            <numerusform>请求历史：%n 条记录未能及时写入（磁盘跟不上）；请求本身均已处理</numerusform>
        </translation>
    </message>
    <message>
        <source>Shared limits: %1</source>
        <translation>共享限额：%1</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::MessageWidget</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Show or hide the model&apos;s reasoning (reasoning_content). It is not sent back with the next turn.</source>
        <translation>显示或隐藏模型的推理过程 (reasoning_content)。下一轮不会将其发回。</translation>
    </message>
    <message>
        <source>Node: who served the reply (X-Switchyard-Node). Attempts: nodes tried, 1 = no failover. First token: request sent → first token. tok/s: output tokens over the time after the first token. In/out: prompt and completion tokens as the node counted them (≈: counted from the stream). Total: request sent → reply ended.</source>
        <translation>节点：提供此回复的节点 (X-Switchyard-Node)。尝试：尝试过的节点数，1 表示没有故障转移。首 token：发送请求 → 首个 token。tok/s：首个 token 之后的输出 token 速率。输入/输出：节点统计的提示和补全 token 数（≈：根据流统计）。总计：发送请求 → 回复结束。</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy this reply (as Markdown) to the clipboard</source>
        <translation>将此回复（Markdown 格式）复制到剪贴板</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>%1 — answering…</source>
        <translation>%1 — 正在回答…</translation>
    </message>
    <message>
        <source>Reasoning…</source>
        <translation>推理中…</translation>
    </message>
    <message>
        <source>Reasoning</source>
        <translation>推理过程</translation>
    </message>
    <message>
        <source>The model returned an empty reply (finish reason: %1).</source>
        <translation>模型返回了空回复（finish reason：%1）。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>The model spent every token reasoning and gave no answer (finish reason: %1). Raise Max tokens.</source>
        <translation>模型把所有 token 都用于推理，没有给出回答（finish reason：%1）。请调高最大 token 数。</translation>
    </message>
    <message>
        <source>Stopped before the first token.</source>
        <translation>在首个 token 之前已停止。</translation>
    </message>
    <message>
        <source>Waiting for the first token…</source>
        <translation>正在等待首个 token…</translation>
    </message>
    <message>
        <source>node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <source>1 attempt</source>
        <translation>1 次尝试</translation>
    </message>
    <message>
        <source>%1 attempts</source>
        <translation>%1 次尝试</translation>
    </message>
    <message>
        <source>first token %1</source>
        <translation>首 token %1</translation>
    </message>
    <message>
        <source>%1 tok/s</source>
        <translation>%1 tok/s</translation>
    </message>
    <message>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <source>%1 in / %2 out tokens</source>
        <translation>输入 %1 / 输出 %2 个 token</translation>
    </message>
    <message>
        <source>total %1</source>
        <translation>总计 %1</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>cut at max tokens</source>
        <translation>达到最大 token 数被截断</translation>
    </message>
    <message>
        <source>finish reason %1</source>
        <translation>finish reason %1</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::MultiTurnPanel</name>
    <message>
        <source>%1 — %2 of %3 requests</source>
        <translation>%1 — 已完成 %2/%3 个请求</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>TTFT P50</source>
        <translation>TTFT P50</translation>
    </message>
    <message>
        <source>TTFT P95</source>
        <translation>TTFT P95</translation>
    </message>
    <message>
        <source>Latency P50</source>
        <translation>延迟 P50</translation>
    </message>
    <message>
        <source>tok/s</source>
        <translation>Token/秒</translation>
    </message>
    <message>
        <source>Prefix hits</source>
        <translation>前缀命中</translation>
    </message>
    <message>
        <source>Split per node</source>
        <translation>各节点分配</translation>
    </message>
    <message>
        <source>Hit rate per node</source>
        <translation>各节点命中率</translation>
    </message>
    <message>
        <source>Multi-turn conversations</source>
        <translation>多轮对话</translation>
    </message>
    <message>
        <source>Conversations, each with a session key of its own</source>
        <translation>对话数，每个对话有自己的会话键</translation>
    </message>
    <message>
        <source>Turns per conversation; each sends the whole history</source>
        <translation>每个对话的轮数；每轮都发送完整历史</translation>
    </message>
    <message>
        <source>Conversations in flight at once</source>
        <translation>同时进行的对话数</translation>
    </message>
    <message>
        <source>Mean max_tokens of an answer (half to 1.5×)</source>
        <translation>回答的平均 max_tokens（0.5 到 1.5 倍）</translation>
    </message>
    <message>
        <source>The system prompt every conversation shares</source>
        <translation>所有对话共享的系统提示词</translation>
    </message>
    <message>
        <source>Log excerpt pasted into each question</source>
        <translation>粘贴到每个问题中的日志片段</translation>
    </message>
    <message>
        <source>Conversations:</source>
        <translation>对话数：</translation>
    </message>
    <message>
        <source>Turns:</source>
        <translation>轮数：</translation>
    </message>
    <message>
        <source>At a time:</source>
        <translation>并发：</translation>
    </message>
    <message>
        <source>Answer tokens:</source>
        <translation>回答 Token 数：</translation>
    </message>
    <message>
        <source>System prompt tokens:</source>
        <translation>系统提示词 Token 数：</translation>
    </message>
    <message>
        <source>Question tokens:</source>
        <translation>问题 Token 数：</translation>
    </message>
    <message>
        <source>Run &amp;multi-turn</source>
        <translation>运行多轮测试(&amp;M)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Copy as Markdown</source>
        <translation>复制为 Markdown</translation>
    </message>
    <message>
        <source>Measures the checked targets as their routing is configured. Change the gateway&apos;s strategy and run again to compare.</source>
        <translation>按当前路由配置测量所选目标。更改网关的策略后再运行一次即可比较。</translation>
    </message>
    <message>
        <source>Check at least one target.</source>
        <translation>请至少选择一个目标。</translation>
    </message>
    <message>
        <source>as configured</source>
        <translation>按当前配置</translation>
    </message>
    <message>
        <source>Done.</source>
        <translation>完成。</translation>
    </message>
    <message>
        <source>(direct)</source>
        <translation>（直连）</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::NodeDescriber</name>
    <message>
        <source>Gateway: %1</source>
        <translation>网关：%1</translation>
    </message>
    <message>
        <source>Answers its health checks.</source>
        <translation>通过健康检查。</translation>
    </message>
    <message>
        <source>Not checked yet.</source>
        <translation>尚未检查。</translation>
    </message>
    <message>
        <source>No traffic yet.</source>
        <translation>尚无流量。</translation>
    </message>
    <message>
        <source>%1 of the attempts in the last %2 s failed.</source>
        <translation>最近 %2 秒内的尝试中有 %1 失败。</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>In flight: %1; none finished in the last %2 s.</source>
        <translation>处理中：%1；最近 %2 秒内没有完成的请求。</translation>
    </message>
    <message>
        <source>No requests finished in the last %1 s.</source>
        <translation>最近 %1 秒内没有完成的请求。</translation>
    </message>
    <message>
        <source>Traffic: %1</source>
        <translation>流量：%1</translation>
    </message>
    <message>
        <source>vLLM version</source>
        <translation>vLLM 版本</translation>
    </message>
    <message>
        <source>Serves</source>
        <translation>提供模型</translation>
    </message>
    <message>
        <source>Requests running</source>
        <translation>运行中的请求</translation>
    </message>
    <message>
        <source>Requests waiting</source>
        <translation>等待中的请求</translation>
    </message>
    <message>
        <source>KV cache usage</source>
        <translation>KV cache 使用率</translation>
    </message>
    <message>
        <source>Generation tokens (total)</source>
        <translation>生成 token（累计）</translation>
    </message>
    <message>
        <source>/metrics</source>
        <translation>/metrics</translation>
    </message>
    <message>
        <source>no vLLM gauges</source>
        <translation>没有 vLLM 指标</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::NodeState</name>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Healthy</source>
        <translation>健康</translation>
    </message>
    <message>
        <source>Degraded</source>
        <translation>性能下降</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>宕机</translation>
    </message>
    <message>
        <source>Recovering</source>
        <translation>恢复中</translation>
    </message>
    <message>
        <source>Draining</source>
        <translation>排空中</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::NodesConfig</name>
    <message>
        <source>Enter at least one node&apos;s base URL, such as http://192.168.1.10:8000.</source>
        <translation>请至少输入一个节点的基础 URL，例如 http://192.168.1.10:8000。</translation>
    </message>
    <message>
        <source>%1 is not an http:// or https:// URL with a host.</source>
        <translation>%1 不是带主机名的 http:// 或 https:// URL。</translation>
    </message>
    <message>
        <source>Enter the model the nodes serve, as their /v1/models lists it.</source>
        <translation>请输入节点提供的模型，与其 /v1/models 列出的名称一致。</translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::NodesModel</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 failed attempts/s over the last %2 s</source>
        <translation>最近 %2 秒内每秒失败的尝试：%1</translation>
    </message>
    <message>
        <source>The last reading before the node went down</source>
        <translation>节点宕机前的最后一次读数</translation>
    </message>
    <message>
        <source>p50 %1, p95 %2; time to first token p95 %3</source>
        <translation>p50 %1，p95 %2；首 token 时间 p95 %3</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>处理中</translation>
    </message>
    <message>
        <source>Run / wait</source>
        <translation>运行 / 等待</translation>
    </message>
    <message>
        <source>KV cache</source>
        <extracomment>Column header, kept short: the node&apos;s KV-cache usage (vLLM). Translate it (e.g. &quot;KV 缓存&quot;).</extracomment>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <extracomment>Column header, kept short: completion tokens generated per second. Translate it (e.g. &quot;令牌/秒&quot;).</extracomment>
        <translation>Token/秒</translation>
    </message>
    <message>
        <source>Req/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <source>p95 latency</source>
        <translation>p95 延迟</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Last check</source>
        <translation>上次检查</translation>
    </message>
    <message>
        <source>The gateway&apos;s verdict from its health checks and from real traffic. Hover a row for the reason.</source>
        <translation>网关根据健康检查和真实流量得出的判断。将鼠标悬停在某行上可查看原因。</translation>
    </message>
    <message>
        <source>Requests the gateway has open on this node</source>
        <translation>网关在此节点上尚未完成的请求</translation>
    </message>
    <message>
        <source>Requests running / waiting in the vLLM scheduler (from the node&apos;s metrics)</source>
        <translation>vLLM 调度器中运行 / 等待的请求（来自节点的指标）</translation>
    </message>
    <message>
        <source>vLLM KV-cache usage (from the node&apos;s /metrics)</source>
        <translation>vLLM KV cache 使用率（来自节点的 /metrics）</translation>
    </message>
    <message>
        <source>Completion tokens per second over the last %1 s</source>
        <translation>最近 %1 秒内每秒的补全 token 数</translation>
    </message>
    <message>
        <source>Attempts sent to the node per second over the last %1 s</source>
        <translation>最近 %1 秒内每秒发往该节点的尝试次数</translation>
    </message>
    <message>
        <source>95th percentile of end-to-end time of successful requests, last %1 s</source>
        <translation>最近 %1 秒内成功请求端到端耗时的第 95 百分位</translation>
    </message>
    <message>
        <source>Failed share of the attempts finished in the last %1 s</source>
        <translation>最近 %1 秒内已完成尝试中失败的比例</translation>
    </message>
    <message>
        <source>When the gateway last checked the node</source>
        <translation>网关上次检查该节点的时间</translation>
    </message>
    <message>
        <source>Last known: %1. The panel cannot see the gateway now: %2</source>
        <translation>最后已知：%1。面板现在无法访问网关：%2</translation>
    </message>
    <message>
        <source>%1, no traffic</source>
        <translation>%1，无流量</translation>
    </message>
    <message>
        <source>%1.
Last health check: %2: %3</source>
        <translation>%1。
上次健康检查：%2：%3</translation>
    </message>
    <message>
        <source>Cache hits</source>
        <extracomment>Column header, kept short: the node&apos;s prefix-cache hit rate (vLLM). Translate it (e.g. &quot;缓存命中&quot;).</extracomment>
        <translation>缓存命中</translation>
    </message>
    <message>
        <source>Share of prompt tokens served from the node&apos;s prefix cache over the last minute (vllm:prefix_cache_hits / queries); — when the node has no such counters. With cache_aware routing, beside it: the share the gateway&apos;s prefix index predicted for the prompts it sent the node in that minute</source>
        <translation>最近一分钟内由节点前缀缓存提供的提示词 Token 占比（vllm:prefix_cache_hits / queries）；节点没有这些计数器时显示 —。使用 cache_aware 路由时，旁边是网关的前缀索引对这一分钟内发往该节点的提示词所预测的占比</translation>
    </message>
    <message>
        <source>%1 (%2 predicted)</source>
        <translation>%1（预测 %2）</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::NodesView</name>
    <message>
        <source>Select a node to see its state, recent errors and metrics.</source>
        <translation>选择一个节点，查看其状态、最近的错误和指标。</translation>
    </message>
    <message>
        <source>No nodes configured</source>
        <translation>未配置节点</translation>
    </message>
    <message>
        <source>Open a Bifrost-compatible config file with your vLLM nodes, or start the built-in demo: two simulated vLLM nodes (vllm-server1 and vllm-server2 serving nemotron-3-super) behind the gateway, to see the panel at work.</source>
        <translation>打开一个列出你的 vLLM 节点、兼容 Bifrost 的配置文件，或启动内置演示：网关后面的两个模拟 vLLM 节点（vllm-server1 和 vllm-server2，提供 nemotron-3-super），看看面板如何工作。</translation>
    </message>
    <message>
        <source>Start the demo</source>
        <translation>启动演示</translation>
    </message>
    <message>
        <source>Open a config file…</source>
        <translation>打开配置文件…</translation>
    </message>
    <message>
        <source>Add my nodes…</source>
        <translation>添加我的节点…</translation>
    </message>
    <message>
        <source>Gateway traffic</source>
        <translation>网关流量</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Answered / failed</source>
        <translation>已回答 / 失败</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>处理中</translation>
    </message>
    <message>
        <source>Tokens in / out</source>
        <translation>输入 / 输出 token</translation>
    </message>
    <message>
        <source>Latency p50 / p95</source>
        <translation>延迟 p50 / p95</translation>
    </message>
    <message>
        <source>Time to first token p95</source>
        <translation>首 token 时间 p95</translation>
    </message>
    <message>
        <source>Last health check</source>
        <translation>上次健康检查</translation>
    </message>
    <message>
        <source>Not checked yet.</source>
        <translation>尚未检查。</translation>
    </message>
    <message>
        <source>checked at %1</source>
        <translation>检查于 %1</translation>
    </message>
    <message>
        <source>Simulated node</source>
        <translation>模拟节点</translation>
    </message>
    <message>
        <source>Recent errors</source>
        <translation>最近的错误</translation>
    </message>
    <message>
        <source>None recorded.</source>
        <translation>没有记录。</translation>
    </message>
    <message>
        <source>(no message)</source>
        <translation>（无消息）</translation>
    </message>
    <message>
        <source>&amp;Enable</source>
        <translation>启用(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Drain</source>
        <translation>排空(&amp;D)</translation>
    </message>
    <message>
        <source>Send new requests to this node again</source>
        <translation>重新向此节点发送新请求</translation>
    </message>
    <message>
        <source>Send no new requests to this node; requests in flight finish</source>
        <translation>不再向此节点发送新请求；处理中的请求会继续完成</translation>
    </message>
    <message>
        <source>&amp;Probe now</source>
        <translation>立即探测(&amp;P)</translation>
    </message>
    <message>
        <source>Run the node&apos;s health checks now instead of at the next interval</source>
        <translation>立即运行该节点的健康检查，而不是等到下一个周期</translation>
    </message>
    <message>
        <source>&amp;Copy base URL</source>
        <translation>复制基础 URL(&amp;C)</translation>
    </message>
    <message>
        <source>Open in c&amp;hat</source>
        <translation>在对话中打开(&amp;H)</translation>
    </message>
    <message>
        <source>Chat with this node&apos;s model, pinned to this node</source>
        <translation>与此节点的模型对话，固定到此节点</translation>
    </message>
    <message>
        <source>Simulated &amp;fault</source>
        <translation>模拟故障(&amp;F)</translation>
    </message>
    <message>
        <source>Healthy (no fault)</source>
        <translation>健康（无故障）</translation>
    </message>
    <message>
        <source>Slow (4× slower)</source>
        <translation>缓慢（慢 4 倍）</translation>
    </message>
    <message>
        <source>Answer with HTTP 500</source>
        <translation>返回 HTTP 500</translation>
    </message>
    <message>
        <source>Cut streams after a few tokens</source>
        <translation>几个 token 后切断流</translation>
    </message>
    <message>
        <source>Hang (accept, never answer)</source>
        <translation>挂起（接受连接，但从不回答）</translation>
    </message>
    <message>
        <source>Refuse connections</source>
        <translation>拒绝连接</translation>
    </message>
    <message>
        <source>Engine dead</source>
        <translation>引擎失效</translation>
    </message>
    <message>
        <source>Node actions</source>
        <translation>节点操作</translation>
    </message>
    <message>
        <source>Make this simulated node misbehave, to see what the gateway does</source>
        <translation>让这个模拟节点出故障，看看网关如何应对</translation>
    </message>
    <message>
        <source>Node %1:</source>
        <translation>节点 %1：</translation>
    </message>
    <message>
        <source>Select a node:</source>
        <translation>选择一个节点：</translation>
    </message>
    <message>
        <source>Select a node first</source>
        <translation>请先选择一个节点</translation>
    </message>
    <message>
        <source>Client closed the connection: %1</source>
        <translation>客户端关闭了连接：%1</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::ProvidersModel</name>
    <message>
        <source>%1 (default)</source>
        <translation>%1（默认）</translation>
    </message>
    <message>
        <source>mixed: %1</source>
        <translation>混合：%1</translation>
    </message>
    <message>
        <source>%1 (sum of %2 keys)</source>
        <translation>%1（%2 个密钥之和）</translation>
    </message>
    <message>
        <source>30 (default)</source>
        <translation>30（默认）</translation>
    </message>
    <message>
        <source>0 (default)</source>
        <translation>0（默认）</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>（默认）</translation>
    </message>
    <message>
        <source>The sum of the enabled keys&apos; weights: edit each key below.</source>
        <translation>已启用密钥的权重之和：请在下方逐个编辑密钥。</translation>
    </message>
    <message>
        <source>The models of all keys: edit each key below.</source>
        <translation>所有密钥的模型：请在下方逐个编辑密钥。</translation>
    </message>
    <message>
        <source>A strategy applies to a model&apos;s whole pool: every provider serving the model shares it.</source>
        <translation>策略作用于某个模型的整个节点池：提供该模型的所有提供方共用同一策略。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>基础 URL</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Timeout (s)</source>
        <translation>超时（秒）</translation>
    </message>
    <message>
        <source>Retries</source>
        <translation>重试次数</translation>
    </message>
    <message>
        <source>Routing strategy</source>
        <translation>路由策略</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::RecentErrors</name>
    <message>
        <source>failed mid-answer: %1</source>
        <translation>回答中途失败：%1</translation>
    </message>
    <message>
        <source>(no message)</source>
        <translation>（无消息）</translation>
    </message>
    <message>
        <source>%1 (retried; it answered then)</source>
        <translation>%1（已重试；随后它作答）</translation>
    </message>
    <message>
        <source>%1 (failed over; %2 answered)</source>
        <translation>%1（已故障转移；%2 作答）</translation>
    </message>
    <message>
        <source>%1 (retried)</source>
        <translation>%1（已重试）</translation>
    </message>
    <message>
        <source>%1 (failed over to %2)</source>
        <translation>%1（已故障转移到 %2）</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::RemoteConfig</name>
    <message>
        <source>there is no gateway to apply it to</source>
        <translation>没有可应用到的网关</translation>
    </message>
    <message>
        <source>the config of %1</source>
        <translation>%1 的配置</translation>
    </message>
    <message>
        <source>The gateway&apos;s config changed</source>
        <translation>网关的配置已更改</translation>
    </message>
    <message>
        <source>Someone changed the config of %1 since it was read here.</source>
        <translation>自从在此处读取后，有人更改了 %1 的配置。</translation>
    </message>
    <message>
        <source>Reload the gateway&apos;s config (your edits are replaced, Undo brings them back), or overwrite it with your text?</source>
        <translation>重新加载网关的配置（你的编辑会被替换，“撤销”可恢复它们），还是用你的文本覆盖它？</translation>
    </message>
    <message>
        <source>Reload the gateway&apos;s config</source>
        <translation>重新加载网关的配置</translation>
    </message>
    <message>
        <source>Overwrite</source>
        <translation>覆盖</translation>
    </message>
    <message>
        <source>no changes</source>
        <translation>无更改</translation>
    </message>
    <message>
        <source>the gateway refused the config: %1</source>
        <translation>网关拒绝了该配置：%1</translation>
    </message>
    <message>
        <source>the gateway did not answer</source>
        <translation>网关没有回应</translation>
    </message>
    <message>
        <source>the gateway&apos;s config changed meanwhile; it is reloaded here</source>
        <translation>网关的配置在此期间已更改；已在此处重新加载</translation>
    </message>
    <message>
        <source>the gateway&apos;s config changed meanwhile (%1)</source>
        <translation>网关的配置在此期间已更改（%1）</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::RemoteSessions</name>
    <message>
        <source>Connect to a gateway</source>
        <translation>连接到网关</translation>
    </message>
    <message>
        <source>Admin key for %1 (empty: none, for a gateway on loopback without keys):</source>
        <translation>%1 的管理密钥（留空表示不使用密钥，适用于回环地址上未配置密钥的网关）：</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::RequestsModel</name>
    <message>
        <source> (stream)</source>
        <translation>（流式）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>TTFT</source>
        <translation>TTFT</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Tokens in → out</source>
        <translation>输入 → 输出 token</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>Request: %1 %2</source>
        <translation>请求：%1 %2</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <source>Streaming: %1</source>
        <translation>流式：%1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Answered by: %1 (attempts: %2)</source>
        <translation>回答者：%1（尝试：%2 次）</translation>
    </message>
    <message>
        <source>Status: %1</source>
        <translation>状态：%1</translation>
    </message>
    <message>
        <source>none (no response was sent)</source>
        <translation>无（未发送响应）</translation>
    </message>
    <message>
        <source>Started: %1</source>
        <translation>开始：%1</translation>
    </message>
    <message>
        <source>Time to first token: %1</source>
        <translation>首 token 时间：%1</translation>
    </message>
    <message>
        <source>Duration: %1</source>
        <translation>耗时：%1</translation>
    </message>
    <message>
        <source>Finished: %1</source>
        <translation>结束：%1</translation>
    </message>
    <message>
        <source>Prompt tokens: %1</source>
        <translation>提示 token：%1</translation>
    </message>
    <message>
        <source>Completion tokens: %1</source>
        <translation>补全 token：%1</translation>
    </message>
    <message>
        <source>Generation speed: %1 tokens/s</source>
        <translation>生成速度：%1 Token/秒</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>%1, cut</source>
        <translation>%1，已中断</translation>
    </message>
    <message>
        <source>Nodes tried:</source>
        <translation>尝试过的节点：</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message>
        <source>(%1 more attempts are not listed)</source>
        <translation>（另有 %1 次尝试未列出）</translation>
    </message>
    <message>
        <source>Answered by: the gateway itself</source>
        <translation>作答者：网关自身</translation>
    </message>
    <message>
        <source>Answered by: %1</source>
        <translation>作答者：%1</translation>
    </message>
    <message>
        <source>Answered by: %1, which failed mid-answer</source>
        <translation>作答者：%1，它在回答中途失败</translation>
    </message>
    <message>
        <source>Answered by: no node; the client closed the connection first</source>
        <translation>作答者：无节点；客户端先关闭了连接</translation>
    </message>
    <message>
        <source>Answered by: no node; the gateway shut down first</source>
        <translation>作答者：无节点；网关先关闭了</translation>
    </message>
    <message>
        <source>Answered by: the gateway, with an error: no node tried could answer</source>
        <translation>作答者：网关，返回错误：尝试过的节点都无法回答</translation>
    </message>
    <message>
        <source>answered %1</source>
        <translation>回答 %1</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>(no message)</source>
        <translation>（无消息）</translation>
    </message>
    <message>
        <source>answered %1, then failed mid-answer: %2</source>
        <translation>回答 %1，随后中途失败：%2</translation>
    </message>
    <message>
        <source>still working when the client closed the connection</source>
        <translation>客户端关闭连接时仍在处理</translation>
    </message>
    <message>
        <source>still working when the gateway shut down</source>
        <translation>网关关闭时仍在处理</translation>
    </message>
    <message>
        <source>no outcome recorded</source>
        <translation>未记录结果</translation>
    </message>
    <message>
        <source>last resort</source>
        <translation>最后手段</translation>
    </message>
    <message>
        <source>retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>fallback model %1</source>
        <translation>后备模型 %1</translation>
    </message>
    <message>
        <source>%1, fallback model %2</source>
        <translation>%1，后备模型 %2</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1：%2（%3）</translation>
    </message>
    <message>
        <source>Why the routing strategy sent the request to this node first (docs/ROUTING.md)</source>
        <translation>路由策略为何首先把请求发到这个节点（docs/ROUTING.md）</translation>
    </message>
    <message>
        <source>Route</source>
        <translation>路由</translation>
    </message>
    <message>
        <source>Routed by: %1</source>
        <translation>路由依据：%1</translation>
    </message>
    <message>
        <source>fallback: %1</source>
        <translation>回退：%1</translation>
    </message>
    <message>
        <source>prefix %1%</source>
        <translation>前缀 %1%</translation>
    </message>
    <message>
        <source>session</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>balance</source>
        <translation>均衡</translation>
    </message>
    <message>
        <source>least loaded</source>
        <translation>负载最低</translation>
    </message>
    <message>
        <source>weighted</source>
        <translation>加权</translation>
    </message>
    <message>
        <source>least outstanding</source>
        <translation>最少未完成</translation>
    </message>
    <message>
        <source>load aware</source>
        <translation>负载感知</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>指定节点</translation>
    </message>
    <message>
        <source>only node</source>
        <translation>唯一节点</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::RequestsView</name>
    <message>
        <source>&amp;Failures only</source>
        <translation>仅显示失败(&amp;F)</translation>
    </message>
    <message>
        <source>Filter by model, node, path, status or error</source>
        <translation>按模型、节点、路径、状态或错误筛选</translation>
    </message>
    <message>
        <source>C&amp;lear</source>
        <translation>清空(&amp;L)</translation>
    </message>
    <message>
        <source>%1 of %2 shown (the last %3 are kept)</source>
        <translation>显示 %1 / %2 条（保留最近 %3 条）</translation>
    </message>
    <message>
        <source>%1 skipped under load</source>
        <translation>负载过高时跳过了 %1 条</translation>
    </message>
    <message>
        <source>Show only the requests the client saw fail: an error status (4xx, 5xx), no response, the client giving up (499), or a stream that began and was then cut (logged with its 200 and an error). A request that failed over and was answered by another node is not a failure; its detail lists the nodes tried.</source>
        <translation>只显示客户端看到失败的请求：错误状态（4xx、5xx）、没有响应、客户端放弃（499），或已开始后被中断的流（以 200 和错误记录）。故障转移后由另一节点作答的请求不算失败；其详情列出尝试过的节点。</translation>
    </message>
    <message>
        <source>Select a request to see the nodes it was sent to, its status, timing and tokens.</source>
        <translation>选择一个请求，查看它被发送到的节点、状态、时间和 token。</translation>
    </message>
    <message>
        <source>Live log</source>
        <translation>实时日志</translation>
    </message>
    <message>
        <source>The last requests, as they finish</source>
        <translation>最近的请求，完成时即显示</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <source>Search every request the gateway kept on disk: by time, key, model, node and outcome</source>
        <translation>搜索网关保存在磁盘上的每个请求：按时间、密钥、模型、节点和结果</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::RoutingSettingsBox</name>
    <message>
        <source>Session affinity and cache-aware routing</source>
        <translation>会话亲和与缓存感知路由</translation>
    </message>
    <message>
        <source>Session header:</source>
        <translation>会话请求头：</translation>
    </message>
    <message>
        <source>X-Session-Id (default)</source>
        <translation>X-Session-Id（默认）</translation>
    </message>
    <message>
        <source>session_affinity: the request header that names a session. Without it the body&apos;s prompt_cache_key, else its user field, is the session key.</source>
        <translation>session_affinity：标识会话的请求头。没有它时，使用请求体的 prompt_cache_key，其次是 user 字段作为会话键。</translation>
    </message>
    <message>
        <source>weighted round robin (default)</source>
        <translation>加权轮询（默认）</translation>
    </message>
    <message>
        <source>session_affinity: how requests without a session key are routed.</source>
        <translation>session_affinity：没有会话键的请求如何路由。</translation>
    </message>
    <message>
        <source>Without a session key:</source>
        <translation>没有会话键时：</translation>
    </message>
    <message>
        <source>Cache threshold:</source>
        <translation>缓存阈值：</translation>
    </message>
    <message>
        <source>0.5 (default)</source>
        <translation>0.5（默认）</translation>
    </message>
    <message>
        <source>cache_aware: the share of the prompt (0 to 1) a node must already have seen for the request to follow it; below that the least loaded node gets it.</source>
        <translation>cache_aware：节点必须已见过的提示词比例（0 到 1），请求才会跟随它；低于该比例时交给负载最低的节点。</translation>
    </message>
    <message>
        <source>Balance, absolute:</source>
        <translation>均衡，绝对值：</translation>
    </message>
    <message>
        <source>cache_aware: when the busiest node has more than this many requests (in flight plus queued) beyond the idlest…</source>
        <translation>cache_aware：当最忙的节点比最空闲的节点多出超过这么多请求（处理中加排队）时……</translation>
    </message>
    <message>
        <source>Balance, relative:</source>
        <translation>均衡，相对值：</translation>
    </message>
    <message>
        <source>…and more than this many times its load, the least loaded node gets the request whatever the others have cached.</source>
        <translation>……并且负载超过其这么多倍时，无论其他节点缓存了什么，请求都交给负载最低的节点。</translation>
    </message>
    <message>
        <source>4 (default)</source>
        <translation>4（默认）</translation>
    </message>
    <message>
        <source>1.5 (default)</source>
        <translation>1.5（默认）</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::SecretDialog</name>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Secret of %1</source>
        <translation>%1 的密文</translation>
    </message>
    <message>
        <source>The key %1 is made. Its clients send this secret as their API key (Authorization: Bearer …):</source>
        <translation>密钥 %1 已创建。其客户端把此密文作为 API 密钥发送（Authorization: Bearer …）：</translation>
    </message>
    <message>
        <source>This is the only time the secret is shown. Store it now; the gateway keeps only its hash.</source>
        <translation>密文只显示这一次。请现在保存；网关只保留其哈希。</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
    <message>
        <source>Close without copying?</source>
        <translation>不复制就关闭？</translation>
    </message>
    <message>
        <source>Close without copying? The secret cannot be shown again.</source>
        <translation>不复制就关闭？密文无法再次显示。</translation>
    </message>
    <message>
        <source>Keep it open</source>
        <translation>保持打开</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>System (%1)</source>
        <extracomment>The language setting&apos;s first entry: follow the system&apos;s language, named in parentheses.</extracomment>
        <translation>跟随系统（%1）</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>The language applies the next time Switchyard starts.</source>
        <translation>语言将在下次启动 Switchyard 时生效。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Restart Switchyard&lt;/b&gt; to switch the language.</source>
        <translation>&lt;b&gt;重新启动 Switchyard&lt;/b&gt; 以切换语言。</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::SimulatedNodes</name>
    <message>
        <source>Fault mode</source>
        <translation>故障模式</translation>
    </message>
    <message>
        <source>Faults injected</source>
        <translation>已注入的故障</translation>
    </message>
    <message>
        <source>Requests received</source>
        <translation>收到的请求</translation>
    </message>
    <message>
        <source>Client aborts</source>
        <translation>客户端中止</translation>
    </message>
    <message>
        <source>Open connections</source>
        <translation>打开的连接</translation>
    </message>
    <message>
        <source>answers inference requests with HTTP 500</source>
        <translation>对推理请求返回 HTTP 500</translation>
    </message>
    <message>
        <source>accepts requests but never answers (hang)</source>
        <translation>接受请求但从不回答（挂起）</translation>
    </message>
    <message>
        <source>refuses connections</source>
        <translation>拒绝连接</translation>
    </message>
    <message>
        <source>cuts streams after a few tokens</source>
        <translation>在几个 token 后切断流</translation>
    </message>
    <message>
        <source>runs several times slower than normal</source>
        <translation>运行速度比正常慢数倍</translation>
    </message>
    <message>
        <source>engine dead: requests fail with errors</source>
        <translation>引擎失效：请求以错误失败</translation>
    </message>
    <message>
        <source>answers with bytes that are not HTTP</source>
        <translation>返回非 HTTP 的字节</translation>
    </message>
    <message>
        <source>Simulated fault &apos;%1&apos;: the node %2.</source>
        <translation>模拟故障“%1”：该节点%2。</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::StorageSettingsBox</name>
    <message>
        <source>Request history and shared keys</source>
        <translation>请求历史与共享密钥</translation>
    </message>
    <message>
        <source>History file:</source>
        <translation>历史文件：</translation>
    </message>
    <message>
        <source>off: the last 1000 requests, in memory</source>
        <translation>关闭：仅在内存中保留最近 1000 个请求</translation>
    </message>
    <message>
        <source>An absolute path, like /var/lib/switchyard/history.db: every request and the virtual keys are kept there in SQLite, across restarts. Empty turns the history off.</source>
        <translation>绝对路径，例如 /var/lib/switchyard/history.db：每个请求和虚拟密钥都保存在其中的 SQLite 里，重启后仍在。留空则关闭历史。</translation>
    </message>
    <message>
        <source>Keep for (days):</source>
        <translation>保留天数：</translation>
    </message>
    <message>
        <source>30 (default)</source>
        <translation>30（默认）</translation>
    </message>
    <message>
        <source>Requests older than this are deleted from the history.</source>
        <translation>早于此时间的请求会从历史中删除。</translation>
    </message>
    <message>
        <source>At most (MB):</source>
        <translation>最大容量（MB）：</translation>
    </message>
    <message>
        <source>1024 (default)</source>
        <translation>1024（默认）</translation>
    </message>
    <message>
        <source>The oldest requests are deleted once the file grows beyond this.</source>
        <translation>文件超过此大小后，最早的请求会被删除。</translation>
    </message>
    <message>
        <source>Shared through Redis:</source>
        <translation>通过 Redis 共享：</translation>
    </message>
    <message>
        <source>off: each gateway on its own</source>
        <translation>关闭：各网关独立计数</translation>
    </message>
    <message>
        <source>redis://host:6379 (or env.NAME): replicas of this gateway share the virtual keys and enforce one limit per key between them. A URL with a password is shown masked.</source>
        <translation>redis://host:6379（或 env.NAME）：本网关的各副本共享虚拟密钥，并对每个密钥共同执行同一限额。含密码的 URL 以掩码显示。</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::VirtualKeysModel</name>
    <message>
        <source>%1 req/min</source>
        <translation>%1 请求/分钟</translation>
    </message>
    <message>
        <source>%1 tokens/min</source>
        <translation>%1 token/分钟</translation>
    </message>
    <message>
        <source>%1 tokens/day</source>
        <translation>%1 token/天</translation>
    </message>
    <message>
        <source>%1 at once</source>
        <translation>同时 %1 个</translation>
    </message>
    <message>
        <source>no limits</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>有效</translation>
    </message>
    <message>
        <source>Revoked</source>
        <translation>已吊销</translation>
    </message>
    <message>
        <source>Expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>never</source>
        <translation>永不</translation>
    </message>
    <message>
        <source>Active until %1: requests with its secret are admitted within its limits.</source>
        <translation>有效至 %1：使用其密文的请求在限额内被接受。</translation>
    </message>
    <message>
        <source>Active: requests with its secret are admitted within its limits.</source>
        <translation>有效：使用其密文的请求在限额内被接受。</translation>
    </message>
    <message>
        <source>Revoked on %1: every request with its secret gets 401. A revoked key stays listed with its usage and cannot be changed.</source>
        <translation>已于 %1 吊销：使用其密文的每个请求都得到 401。已吊销的密钥仍连同其用量列出，且不能更改。</translation>
    </message>
    <message>
        <source>Expired on %1: every request with its secret gets 401. Edit limits… can give it a new expiry.</source>
        <translation>已于 %1 过期：使用其密文的每个请求都得到 401。“编辑限额…”可以给它新的到期时间。</translation>
    </message>
    <message>
        <source>Its secret looks like %1 (the gateway keeps only a hash).</source>
        <translation>其密文形如 %1（网关只保留哈希）。</translation>
    </message>
    <message>
        <source>Requests admitted since the gateway started; %1 more were refused by the key&apos;s limits.</source>
        <translation>网关启动以来接受的请求；另有 %1 个被此密钥的限额拒绝。</translation>
    </message>
    <message>
        <source>Prompt %1 + completion %2 tokens since the gateway started, as the nodes reported them.</source>
        <translation>网关启动以来的提示 %1 + 补全 %2 token，按节点报告的数量。</translation>
    </message>
    <message>
        <source>Requests / tokens in the current minute (from :00 on the clock).</source>
        <translation>当前这一分钟（从整分 :00 起）的请求数 / token。</translation>
    </message>
    <message>
        <source>Tokens in the current UTC day.</source>
        <translation>当前 UTC 日内的 token。</translation>
    </message>
    <message>
        <source>Requests with this key being answered now.</source>
        <translation>使用此密钥、正在回答中的请求。</translation>
    </message>
    <message>
        <source>The models the key may ask for; all: any model.</source>
        <translation>此密钥可请求的模型；全部：任何模型。</translation>
    </message>
    <message>
        <source>The providers (nodes) its requests may reach; all: any.</source>
        <translation>其请求可到达的提供方（节点）；全部：任何提供方。</translation>
    </message>
    <message>
        <source>Requests / tokens in the current minute.</source>
        <translation>当前这一分钟的请求数 / token。</translation>
    </message>
    <message>
        <source>Tokens in the current UTC day, of the daily limit if it has one.</source>
        <translation>当前 UTC 日内的 token，有每日限额时显示占限额多少。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>提供方</translation>
    </message>
    <message>
        <source>Limits</source>
        <translation>限额</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>This minute</source>
        <translation>本分钟</translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>In flight</source>
        <translation>处理中</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建于</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>到期</translation>
    </message>
</context>
<context>
    <name>switchyard::ui::WelcomeDialog</name>
    <message>
        <source>Welcome to Switchyard</source>
        <translation>欢迎使用 Switchyard</translation>
    </message>
    <message>
        <source>Switchyard puts one OpenAI-compatible endpoint in front of your LLM nodes and shows how each of them is doing. How would you like to start?</source>
        <translation>Switchyard 在你的大模型节点前提供一个兼容 OpenAI 的统一端点，并显示每个节点的运行状况。你想如何开始？</translation>
    </message>
    <message>
        <source>Start the demo</source>
        <translation>启动演示</translation>
    </message>
    <message>
        <source>Two simulated vLLM nodes behind the gateway, to see the panel at work. Nothing leaves this computer.</source>
        <translation>网关后面的两个模拟 vLLM 节点，看看面板如何工作。不会有任何数据离开这台电脑。</translation>
    </message>
    <message>
        <source>Open my config…</source>
        <translation>打开我的配置…</translation>
    </message>
    <message>
        <source>A Bifrost-compatible JSON file that lists your providers.</source>
        <translation>一个列出你的提供方、兼容 Bifrost 的 JSON 文件。</translation>
    </message>
    <message>
        <source>Add my nodes</source>
        <translation>添加我的节点</translation>
    </message>
    <message>
        <source>Enter your nodes&apos; base URLs and the model they serve; Switchyard writes the config file for you.</source>
        <translation>输入节点的基础 URL 和它们提供的模型；Switchyard 会为你写好配置文件。</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>暂不</translation>
    </message>
    <message>
        <source>One line per node: the base URL its OpenAI-compatible server listens on (for vLLM, the host and --port). Requests for the model are balanced over all of them, equally weighted; edit the file later for weights, timeouts and more.</source>
        <translation>每行一个节点：其兼容 OpenAI 的服务器所监听的基础 URL（对 vLLM 而言，即主机和 --port）。该模型的请求会在所有节点间按相同权重均衡；之后可编辑该文件来设置权重、超时等。</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <source>Node &amp;URLs:</source>
        <translation>节点 URL(&amp;U)：</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>Nodes&apos; API &amp;key:</source>
        <translation>节点 API 密钥(&amp;K)：</translation>
    </message>
    <message>
        <source>Gateway &amp;listens on:</source>
        <translation>网关监听地址(&amp;L)：</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>返回</translation>
    </message>
    <message>
        <source>Create and open</source>
        <translation>创建并打开</translation>
    </message>
    <message>
        <source>Saved as %1</source>
        <translation>保存为 %1</translation>
    </message>
</context>
</TS>
