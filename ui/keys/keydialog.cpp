#include "keys/keydialog.h"

#include <QCheckBox>
#include <QCompleter>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStringListModel>
#include <QVBoxLayout>
#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
// Completes the name after the last comma of a comma-separated list, keeping what comes before it.
class ListCompleter final : public QCompleter
{
public:
    ListCompleter(const QStringList &words, QLineEdit *edit) : QCompleter(words, edit), m_edit(edit)
    {
        setCaseSensitivity(Qt::CaseInsensitive);
        setFilterMode(Qt::MatchContains);
        setWidget(edit);
    }

    QStringList splitPath(const QString &path) const override
    {
        return {path.section(u',', -1).trimmed()};
    }

    QString pathFromIndex(const QModelIndex &index) const override
    {
        const QString chosen = QCompleter::pathFromIndex(index);
        const QString text = m_edit->text();
        const qsizetype comma = text.lastIndexOf(u',');
        if (comma < 0)
            return chosen;
        return text.left(comma + 1) + u' ' + chosen;
    }

private:
    QLineEdit *m_edit;
};

QSpinBox *limitBox(const QString &objectName, const QString &suffix, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setObjectName(objectName);
    box->setRange(0, KeyDialog::MaxLimit);
    // 0 is how the gateway says "no limit"; the box says it in words.
    box->setSpecialValueText(KeyDialog::tr("no limit"));
    box->setSuffix(suffix);
    box->setGroupSeparatorShown(true);
    box->setAccelerated(true);
    box->setMinimumWidth(160);
    return box;
}
} // namespace

KeyDialog::KeyDialog(QWidget *parent) : QDialog(parent)
{
    build();
    setWindowTitle(tr("New virtual key"));
    okButton()->setText(tr("Make key"));
    validate();
}

KeyDialog::KeyDialog(const keys::KeyListing &existing, QWidget *parent) : QDialog(parent), m_original(existing.key)
{
    build();
    setWindowTitle(tr("Limits of %1").arg(existing.key.name));
    prefill(existing.key);
    validate();
}

KeyDialog::~KeyDialog() = default;

void KeyDialog::build()
{
    setObjectName(u"keyDialog"_s);
    m_name = new QLineEdit(this);
    m_name->setObjectName(u"keyName"_s);
    m_name->setMaxLength(MaxNameLength);
    m_name->setPlaceholderText(tr("whom or what it is for, e.g. ci-pipeline"));
    m_models = new QLineEdit(this);
    m_models->setObjectName(u"keyModels"_s);
    m_models->setPlaceholderText(tr("all models"));
    m_models->setToolTip(tr("The models the key may ask for, as clients name them, separated by commas. "
                            "Empty: every model."));
    m_providers = new QLineEdit(this);
    m_providers->setObjectName(u"keyProviders"_s);
    m_providers->setPlaceholderText(tr("all providers"));
    m_providers->setToolTip(tr("The providers (nodes) its requests may reach, separated by commas; routing chooses "
                               "only among these. Empty: every provider."));
    m_requestsPerMinute = limitBox(u"requestsPerMinute"_s, tr(" req/min"), this);
    m_tokensPerMinute = limitBox(u"tokensPerMinute"_s, tr(" tokens/min"), this);
    m_tokensPerDay = limitBox(u"tokensPerDay"_s, tr(" tokens/day"), this);
    m_tokensPerDay->setToolTip(tr("Prompt and completion tokens in the current UTC day."));
    m_maxConcurrent = limitBox(u"maxConcurrent"_s, tr(" at once"), this);
    m_maxConcurrent->setToolTip(tr("Requests in flight at once."));
    m_expires = new QCheckBox(tr("Expires"), this);
    m_expires->setObjectName(u"keyExpires"_s);
    m_expiry = new QDateTimeEdit(QDateTime::currentDateTime().addDays(30), this);
    m_expiry->setObjectName(u"keyExpiry"_s);
    m_expiry->setCalendarPopup(true);
    m_expiry->setDisplayFormat(u"yyyy-MM-dd HH:mm"_s);
    m_expiry->setEnabled(false);
    m_problem = new QLabel(this);
    m_problem->setObjectName(u"keyProblem"_s);
    m_problem->setStyleSheet(u"color: #c62828;"_s);
    m_problem->setWordWrap(true);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Models:"), m_models);
    form->addRow(tr("&Providers:"), m_providers);
    form->addRow(tr("&Requests per minute:"), m_requestsPerMinute);
    form->addRow(tr("&Tokens per minute:"), m_tokensPerMinute);
    form->addRow(tr("Tokens per &day:"), m_tokensPerDay);
    form->addRow(tr("&At once:"), m_maxConcurrent);
    auto *expiryRow = new QHBoxLayout;
    expiryRow->addWidget(m_expires);
    expiryRow->addWidget(m_expiry, 1);
    form->addRow(tr("Expiry:"), expiryRow);

    auto *note = new QLabel(tr("0 means no limit. A request over a limit gets 429 and reaches no node; tokens are "
                               "counted when an answer ends."),
                            this);
    note->setWordWrap(true);
    note->setEnabled(false); // as a hint reads

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_name, &QLineEdit::textChanged, this, &KeyDialog::validate);
    connect(m_expires, &QCheckBox::toggled, m_expiry, &QWidget::setEnabled);
    connect(m_expires, &QCheckBox::toggled, this, &KeyDialog::validate);
    connect(m_expiry, &QDateTimeEdit::dateTimeChanged, this, &KeyDialog::validate);
    setMinimumWidth(460);
}

void KeyDialog::prefill(const keys::VirtualKey &key)
{
    m_name->setText(key.name);
    m_models->setText(key.models.join(u", "_s));
    m_providers->setText(key.providers.join(u", "_s));
    m_requestsPerMinute->setValue(int(std::clamp<qint64>(key.limits.requestsPerMinute, 0, MaxLimit)));
    m_tokensPerMinute->setValue(int(std::clamp<qint64>(key.limits.tokensPerMinute, 0, MaxLimit)));
    m_tokensPerDay->setValue(int(std::clamp<qint64>(key.limits.tokensPerDay, 0, MaxLimit)));
    m_maxConcurrent->setValue(int(std::clamp<qint64>(key.limits.maxConcurrent, 0, MaxLimit)));
    if (key.expiresMs > 0) {
        m_expiry->setDateTime(QDateTime::fromMSecsSinceEpoch(key.expiresMs));
        m_expires->setChecked(true);
    }
    m_prefilledExpiry = m_expiry->dateTime();
}

void KeyDialog::setSuggestions(const QStringList &models, const QStringList &providers)
{
    if (!models.isEmpty())
        m_models->setCompleter(new ListCompleter(models, m_models));
    if (!providers.isEmpty())
        m_providers->setCompleter(new ListCompleter(providers, m_providers));
}

QPushButton *KeyDialog::okButton() const
{
    return m_buttons->button(QDialogButtonBox::Ok);
}

QStringList KeyDialog::splitList(const QString &text)
{
    QStringList out;
    for (const QString &part : text.split(u',', Qt::SkipEmptyParts)) {
        const QString name = part.trimmed();
        if (!name.isEmpty() && !out.contains(name))
            out.append(name);
    }
    return out;
}

qint64 KeyDialog::expiresMs() const
{
    return m_expires->isChecked() ? m_expiry->dateTime().toMSecsSinceEpoch() : 0;
}

bool KeyDialog::isValid() const
{
    const QString name = m_name->text().trimmed();
    if (name.isEmpty() || name.size() > MaxNameLength)
        return false;
    // A new expiry in the past would make a key that refuses everything from the start.
    const bool expiryTouched = !m_original || m_expiry->dateTime() != m_prefilledExpiry;
    if (m_expires->isChecked() && expiryTouched && m_expiry->dateTime() <= QDateTime::currentDateTime())
        return false;
    return true;
}

void KeyDialog::validate()
{
    QString problem;
    if (m_name->text().trimmed().isEmpty())
        problem = tr("A key needs a name: whom or what it is for.");
    else if (!isValid())
        problem = tr("The expiry is in the past.");
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    okButton()->setEnabled(isValid());
}

keys::KeyChange KeyDialog::change() const
{
    keys::KeyChange c;
    const QString name = m_name->text().trimmed();
    const QStringList models = splitList(m_models->text());
    const QStringList providers = splitList(m_providers->text());
    const qint64 rpm = m_requestsPerMinute->value(), tpm = m_tokensPerMinute->value(),
                 tpd = m_tokensPerDay->value(), concurrent = m_maxConcurrent->value();
    const qint64 expires = expiresMs();
    if (!m_original) {
        c.name = name;
        c.models = models;
        c.providers = providers;
        c.requestsPerMinute = rpm;
        c.tokensPerMinute = tpm;
        c.tokensPerDay = tpd;
        c.maxConcurrent = concurrent;
        c.expiresMs = expires;
        return c;
    }
    const keys::VirtualKey &o = *m_original;
    if (name != o.name)
        c.name = name;
    if (models != o.models)
        c.models = models;
    if (providers != o.providers)
        c.providers = providers;
    if (rpm != o.limits.requestsPerMinute)
        c.requestsPerMinute = rpm;
    if (tpm != o.limits.tokensPerMinute)
        c.tokensPerMinute = tpm;
    if (tpd != o.limits.tokensPerDay)
        c.tokensPerDay = tpd;
    if (concurrent != o.limits.maxConcurrent)
        c.maxConcurrent = concurrent;
    // Compared with what the editor showed at first: a date left alone is not sent back rounded.
    if (m_expires->isChecked() != (o.expiresMs != 0) || (m_expires->isChecked() && m_expiry->dateTime() != m_prefilledExpiry))
        c.expiresMs = expires;
    return c;
}

} // namespace switchyard::ui
