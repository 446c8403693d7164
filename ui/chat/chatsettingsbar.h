#pragma once

// The chat console's top rows: where the chat goes and how the model samples (model, temperature, max
// tokens, system prompt), and the chat's New / Open / Save. The values are read into and set from a
// Conversation, which carries the same settings in a saved chat.

#include <QWidget>
#include <optional>

class QCheckBox;
class QDoubleSpinBox;
class QPlainTextEdit;
class QSpinBox;
class QToolButton;

namespace switchyard::client {
class Conversation;
}

namespace switchyard::ui {

class ChatModelPicker;

class ChatSettingsBar final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChatSettingsBar)

public:
    explicit ChatSettingsBar(QWidget *parent = nullptr);

    ChatModelPicker *modelPicker() const { return m_model; }
    // Model, system prompt, temperature and max tokens into c (its messages untouched).
    void applyTo(client::Conversation &c) const;
    void setSystemPrompt(const QString &text);
    // nullopt: not sent, the model's own default.
    void setTemperature(std::optional<double> temperature);
    // 0: not sent, the node decides.
    void setMaxTokens(int maxTokens);
    // Whether replies come through the Responses API (/v1/responses) rather than chat completions.
    bool responsesApi() const;
    // Asking for the models makes sense only while the gateway runs.
    void setRefreshEnabled(bool enabled);

signals:
    void refreshRequested();
    void newChatRequested();
    void openRequested();
    void saveRequested();

private:
    QLayout *buildSamplingRow();
    QLayout *buildSystemRow();

    ChatModelPicker *m_model;
    QToolButton *m_refresh;
    QDoubleSpinBox *m_temperature;
    QSpinBox *m_maxTokens;
    QCheckBox *m_responsesApi;
    QPlainTextEdit *m_systemPrompt;
};

} // namespace switchyard::ui
