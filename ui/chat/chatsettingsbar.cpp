#include "chatsettingsbar.h"

#include "chat/conversation.h"
#include "chatmodelpicker.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

ChatSettingsBar::ChatSettingsBar(QWidget *parent) : QWidget(parent)
{
    // Laid out as if the two rows sat in the console's own layout: no margins of its own.
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buildSamplingRow());
    layout->addLayout(buildSystemRow());
}

// Row 1: model and sampling settings, and the chat's file actions. Mnemonics avoid the main window's
// (tabs N C R F H B, menus F G V H).
QLayout *ChatSettingsBar::buildSamplingRow()
{
    m_model = new ChatModelPicker(this);
    auto *modelLabel = new QLabel(tr("&Model:"), this);
    modelLabel->setBuddy(m_model);

    m_refresh = new QToolButton(this);
    m_refresh->setObjectName(u"chatRefreshModels"_s);
    m_refresh->setText(tr("\u21BB"));
    m_refresh->setToolTip(tr("Ask the gateway for its models again"));
    connect(m_refresh, &QToolButton::clicked, this, &ChatSettingsBar::refreshRequested);

    m_temperature = new QDoubleSpinBox(this);
    m_temperature->setObjectName(u"chatTemperature"_s);
    // The lowest value stands for "not sent": the model's own default (vLLM reads generation_config).
    m_temperature->setRange(-0.1, 2.0);
    m_temperature->setSingleStep(0.1);
    m_temperature->setDecimals(2);
    m_temperature->setSpecialValueText(tr("default"));
    m_temperature->setValue(-0.1);
    m_temperature->setToolTip(tr("Sampling temperature; \"default\" leaves it to the model"));
    auto *tempLabel = new QLabel(tr("&Temperature:"), this);
    tempLabel->setBuddy(m_temperature);

    m_maxTokens = new QSpinBox(this);
    m_maxTokens->setObjectName(u"chatMaxTokens"_s);
    m_maxTokens->setRange(0, 1000000);
    m_maxTokens->setSingleStep(256);
    m_maxTokens->setSpecialValueText(tr("default"));
    m_maxTokens->setValue(0);
    m_maxTokens->setToolTip(tr("Upper bound on the reply's tokens (reasoning included); \"default\" lets the "
                               "node decide (the rest of its context)"));
    auto *maxLabel = new QLabel(tr("Max t&okens:"), this);
    maxLabel->setBuddy(m_maxTokens);

    m_responsesApi = new QCheckBox(tr("Responses API"), this);
    m_responsesApi->setObjectName(u"chatResponsesApi"_s);
    m_responsesApi->setToolTip(tr("Send the chat through the Responses API (POST /v1/responses) instead of chat "
                                  "completions: what coding agents and the newer OpenAI SDK calls use"));

    auto button = [this](const QString &text, const QString &name, const QString &toolTip, void (ChatSettingsBar::*signal)()) {
        auto *b = new QPushButton(text, this);
        b->setObjectName(name);
        b->setToolTip(toolTip);
        connect(b, &QPushButton::clicked, this, signal);
        return b;
    };
    QPushButton *newChat = button(tr("Ne&w chat"), u"chatNew"_s,
                                  tr("Start over: clears the messages, keeps the model and settings"),
                                  &ChatSettingsBar::newChatRequested);
    QPushButton *load = button(tr("O&pen\u2026"), u"chatLoad"_s, tr("Open a chat saved as JSON (or an OpenAI request body)"),
                               &ChatSettingsBar::openRequested);
    QPushButton *save = button(tr("&Save\u2026"), u"chatSave"_s,
                               tr("Save this chat as JSON: messages, reasoning, settings and each reply's node and timings"),
                               &ChatSettingsBar::saveRequested);

    auto *row = new QHBoxLayout;
    row->addWidget(modelLabel);
    row->addWidget(m_model, 3);
    row->addWidget(m_refresh);
    row->addSpacing(12);
    row->addWidget(tempLabel);
    row->addWidget(m_temperature);
    row->addSpacing(12);
    row->addWidget(maxLabel);
    row->addWidget(m_maxTokens);
    row->addSpacing(12);
    row->addWidget(m_responsesApi);
    row->addStretch(1);
    row->addWidget(newChat);
    row->addWidget(load);
    row->addWidget(save);
    return row;
}

// Row 2: the system prompt, short by default (it is read more often than written).
QLayout *ChatSettingsBar::buildSystemRow()
{
    m_systemPrompt = new QPlainTextEdit(this);
    m_systemPrompt->setObjectName(u"chatSystemPrompt"_s);
    m_systemPrompt->setPlaceholderText(tr("System prompt (optional), sent first with every turn"));
    m_systemPrompt->setTabChangesFocus(true);
    m_systemPrompt->setFixedHeight(fontMetrics().lineSpacing() * 2 + 14);
    auto *systemLabel = new QLabel(tr("S&ystem:"), this);
    systemLabel->setBuddy(m_systemPrompt);
    auto *row = new QHBoxLayout;
    row->addWidget(systemLabel, 0, Qt::AlignTop);
    row->addWidget(m_systemPrompt, 1);
    return row;
}

void ChatSettingsBar::applyTo(client::Conversation &c) const
{
    c.model = m_model->currentModel();
    c.systemPrompt = m_systemPrompt->toPlainText();
    if (m_temperature->value() > m_temperature->minimum())
        c.temperature = m_temperature->value();
    c.maxTokens = m_maxTokens->value();
}

bool ChatSettingsBar::responsesApi() const
{
    return m_responsesApi->isChecked();
}

void ChatSettingsBar::setSystemPrompt(const QString &text)
{
    m_systemPrompt->setPlainText(text);
}

void ChatSettingsBar::setTemperature(std::optional<double> temperature)
{
    m_temperature->setValue(temperature ? *temperature : m_temperature->minimum());
}

void ChatSettingsBar::setMaxTokens(int maxTokens)
{
    m_maxTokens->setValue(std::max(0, maxTokens));
}

void ChatSettingsBar::setRefreshEnabled(bool enabled)
{
    m_refresh->setEnabled(enabled);
}

} // namespace switchyard::ui
