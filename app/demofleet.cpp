#include "demofleet.h"

#include <nlohmann/json.hpp>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::app {

DemoFleet::~DemoFleet()
{
    stop();
}

Expected<QByteArray, QString> DemoFleet::start()
{
    nlohmann::json providers = nlohmann::json::object();
    for (int i = 1; i <= 2; ++i) {
        sim::SimNodeOptions o;
        o.name = u"vllm-server"_s + QString::number(i);
        o.models = {u"nemotron-3-super"_s};
        // Defaults are calibrated to the article's two-node setup (≈15 tok/s alone, ≈28 tok/s with 5 concurrent); the
        // demo keeps them so the charts show what an operator would see on DGX Spark nodes.
        auto node = std::make_unique<sim::SimNode>(o);
        auto port = node->start();
        if (!port)
            return unexpected(u"Cannot start the demo node "_s % o.name % u": "_s % port.error());
        // The article's provider JSON, verbatim but for the base URL.
        providers[o.name.toStdString()] = {
            {"keys",
             nlohmann::json::array({{{"name", "s" + std::to_string(i) + "-key"},
                                     {"value", "dummy"},
                                     {"models", nlohmann::json::array({"nemotron-3-super"})},
                                     {"weight", 1}}})},
            {"network_config",
             {{"base_url", node->baseUrl().toStdString()}, {"default_request_timeout_in_seconds", 120}, {"max_retries", 2}}},
            {"custom_provider_config",
             {{"base_provider_type", "openai"}, {"allowed_requests", {{"chat_completion", true}, {"text_completion", true}}}}},
        };
        m_nodes.push_back(std::move(node));
    }
    const std::string text = nlohmann::json{{"providers", providers}}.dump(2);
    return QByteArray(text.data(), qsizetype(text.size()));
}

void DemoFleet::stop()
{
    for (auto &n : m_nodes)
        n->stop();
    m_nodes.clear();
}

std::vector<sim::SimNode *> DemoFleet::nodes() const
{
    std::vector<sim::SimNode *> out;
    for (const auto &n : m_nodes)
        out.push_back(n.get());
    return out;
}

sim::SimNode *DemoFleet::node(const QString &name) const
{
    for (const auto &n : m_nodes) {
        if (n->options().name == name)
            return n.get();
    }
    return nullptr;
}

} // namespace switchyard::app
