#pragma once

// "New key…" and "Edit limits…" of the Keys view: a virtual key's name, the models and providers it may
// use (comma-separated; empty = all), its four limits (0 = no limit) and an optional expiry. Making a
// key sends every field; editing one sends only the fields the operator changed, so a limit changed
// meanwhile through the API is not put back by a dialog that did not touch it.

#include "keys/keyregistry.h"

#include <QDateTime>
#include <QDialog>
#include <optional>

class QCheckBox;
class QDateTimeEdit;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace switchyard::ui {

class KeyDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(KeyDialog)

public:
    static constexpr int MaxNameLength = 100;
    static constexpr int MaxLimit = 1'000'000'000; // as the gateway accepts (docs/KEYS.md)

    // A new key.
    explicit KeyDialog(QWidget *parent = nullptr);
    // The limits of an existing key, prefilled.
    explicit KeyDialog(const keys::KeyListing &existing, QWidget *parent = nullptr);
    ~KeyDialog() override;

    bool isEditing() const { return m_original.has_value(); }
    QString keyId() const { return m_original ? m_original->id : QString(); }

    // What the gateway's nodes serve and are called, offered as completions.
    void setSuggestions(const QStringList &models, const QStringList &providers);

    // New: every field. Editing: only the fields that differ from the key as it was (may be empty).
    keys::KeyChange change() const;
    bool isValid() const;

    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *modelsEdit() const { return m_models; }
    QLineEdit *providersEdit() const { return m_providers; }
    QSpinBox *requestsPerMinuteBox() const { return m_requestsPerMinute; }
    QSpinBox *tokensPerMinuteBox() const { return m_tokensPerMinute; }
    QSpinBox *tokensPerDayBox() const { return m_tokensPerDay; }
    QSpinBox *maxConcurrentBox() const { return m_maxConcurrent; }
    QCheckBox *expiresBox() const { return m_expires; }
    QDateTimeEdit *expiryEdit() const { return m_expiry; }
    QPushButton *okButton() const;

    static QStringList splitList(const QString &text);

private:
    void build();
    void prefill(const keys::VirtualKey &key);
    void validate();
    qint64 expiresMs() const;

    std::optional<keys::VirtualKey> m_original;
    QDateTime m_prefilledExpiry; // what the expiry editor showed when the dialog opened
    QLineEdit *m_name;
    QLineEdit *m_models;
    QLineEdit *m_providers;
    QSpinBox *m_requestsPerMinute;
    QSpinBox *m_tokensPerMinute;
    QSpinBox *m_tokensPerDay;
    QSpinBox *m_maxConcurrent;
    QCheckBox *m_expires;
    QDateTimeEdit *m_expiry;
    QLabel *m_problem;
    QDialogButtonBox *m_buttons;
};

} // namespace switchyard::ui
