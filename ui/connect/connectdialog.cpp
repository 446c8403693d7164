#include "connect/connectdialog.h"

#include "connect/credentialstore.h"
#include "connect/gatewayurl.h"
#include "connect/recentgateways.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
// Hints and problems in a quieter colour than the fields they explain.
void makeHint(QLabel *label, bool problem)
{
    label->setWordWrap(true);
    QPalette p = label->palette();
    p.setColor(QPalette::WindowText, problem ? QColor(190, 40, 40) : p.color(QPalette::PlaceholderText));
    label->setPalette(p);
}
} // namespace

ConnectDialog::ConnectDialog(CredentialStore *credentials, RecentGateways *recent, QWidget *parent)
    : QDialog(parent),
      m_credentials(credentials),
      m_recent(recent),
      m_url(new QLineEdit(this)),
      m_urlProblem(new QLabel(this)),
      m_key(new QLineEdit(this)),
      m_showKey(new QToolButton(this)),
      m_remember(new QCheckBox(tr("&Remember the key in the desktop's secret store"), this)),
      m_rememberNote(new QLabel(this)),
      m_recentList(new QListWidget(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Cancel, this))
{
    setObjectName(u"connectDialog"_s);
    setWindowTitle(tr("Connect to Gateway"));

    auto *intro = new QLabel(tr("Watch and steer a Switchyard gateway that runs elsewhere, e.g. headless on a "
                                "server, over its management API."),
                             this);
    intro->setWordWrap(true);

    m_url->setObjectName(u"urlEdit"_s);
    m_url->setPlaceholderText(u"https://gateway.example:8080"_s);
    m_url->setClearButtonEnabled(true);
    m_urlProblem->setObjectName(u"urlProblem"_s);
    makeHint(m_urlProblem, true);
    m_urlProblem->hide();

    m_key->setObjectName(u"keyEdit"_s);
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setPlaceholderText(tr("One of the gateway's admin_keys"));
    m_key->setInputMethodHints(Qt::ImhHiddenText | Qt::ImhNoPredictiveText | Qt::ImhNoAutoUppercase);
    m_showKey->setObjectName(u"showKeyButton"_s);
    m_showKey->setCheckable(true);
    m_showKey->setText(tr("Show"));
    m_showKey->setToolTip(tr("Show or hide the key"));
    connect(m_showKey, &QToolButton::toggled, this, &ConnectDialog::setKeyShown);
    connect(m_key, &QLineEdit::textEdited, this, [this] { m_keyEdited = true; });
    auto *keyRow = new QHBoxLayout();
    keyRow->setContentsMargins(0, 0, 0, 0);
    keyRow->addWidget(m_key, 1);
    keyRow->addWidget(m_showKey);

    m_remember->setObjectName(u"rememberCheck"_s);
    m_rememberNote->setObjectName(u"rememberNote"_s);
    makeHint(m_rememberNote, false);

    m_recentList->setObjectName(u"recentList"_s);
    m_recentList->setUniformItemSizes(true);
    m_recentList->setMaximumHeight(m_recentList->fontMetrics().height() * 7);
    const QStringList urls = m_recent ? m_recent->urls() : QStringList();
    for (const QString &u : urls)
        m_recentList->addItem(u);
    auto *recentLabel = new QLabel(tr("Recent &gateways:"), this);
    recentLabel->setBuddy(m_recentList);
    auto *noRecent = new QLabel(tr("None yet: the gateways you connect to are listed here."), this);
    makeHint(noRecent, false);
    noRecent->setVisible(urls.isEmpty());
    m_recentList->setVisible(!urls.isEmpty());
    connect(m_recentList, &QListWidget::itemClicked, this, &ConnectDialog::pickRecent);
    connect(m_recentList, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        pickRecent(item);
        if (m_buttons->button(QDialogButtonBox::Ok)->isEnabled())
            accept();
    });

    auto *connectButton = m_buttons->addButton(QDialogButtonBox::Ok);
    connectButton->setText(tr("&Connect"));
    connectButton->setObjectName(u"connectButton"_s);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ConnectDialog::reject);

    auto *form = new QFormLayout();
    form->addRow(tr("&Address:"), m_url);
    form->addRow(QString(), m_urlProblem);
    form->addRow(tr("Admin &key:"), keyRow);
    form->addRow(QString(), m_remember);
    form->addRow(QString(), m_rememberNote);
    if (auto *keyLabel = qobject_cast<QLabel *>(form->labelForField(keyRow)))
        keyLabel->setBuddy(m_key);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addSpacing(4);
    layout->addLayout(form);
    layout->addSpacing(4);
    layout->addWidget(recentLabel);
    layout->addWidget(m_recentList);
    layout->addWidget(noRecent);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
    setMinimumWidth(520);

    connect(m_url, &QLineEdit::textChanged, this, &ConnectDialog::validate);
    if (m_credentials) {
        connect(m_credentials, &CredentialStore::availabilityChanged, this, &ConnectDialog::updateRemember);
        connect(m_credentials, &CredentialStore::keyLoaded, this, &ConnectDialog::onKeyLoaded);
        if (m_credentials->availability() == CredentialStore::Availability::Unknown)
            m_credentials->probe();
    }
    updateRemember();
    validate();
}

ConnectDialog::~ConnectDialog() = default;

ConnectRequest ConnectDialog::request() const
{
    ConnectRequest r;
    r.url = m_parsed;
    r.key = m_key->text().trimmed();
    r.remember = m_remember->isEnabled() && m_remember->isChecked();
    return r;
}

void ConnectDialog::setUrl(const QString &url)
{
    m_url->setText(url);
}

void ConnectDialog::validate()
{
    const QString text = m_url->text();
    auto parsed = GatewayUrl::parse(text);
    m_parsed = parsed ? *parsed : QUrl();
    // Nothing typed yet is not a problem to point at; the Connect button says enough.
    m_urlProblem->setVisible(!parsed && !text.trimmed().isEmpty());
    m_urlProblem->setText(parsed ? QString() : parsed.error());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(parsed.hasValue());
}

void ConnectDialog::pickRecent(QListWidgetItem *item)
{
    if (!item)
        return;
    setUrl(item->text());
    m_key->clear();
    m_keyEdited = false;
    if (!m_credentials || !m_parsed.isValid())
        return;
    m_loadingFor = GatewayUrl::canonical(m_parsed);
    m_key->setPlaceholderText(tr("Looking up the remembered key…"));
    m_credentials->load(m_loadingFor);
}

void ConnectDialog::onKeyLoaded(const QString &gatewayUrl, const QString &key, bool found)
{
    if (gatewayUrl != m_loadingFor)
        return;
    m_loadingFor.clear();
    m_key->setPlaceholderText(found ? QString() : tr("No key remembered for this gateway"));
    // The operator typed a key while the store was looking: theirs wins.
    if (!found || m_keyEdited)
        return;
    m_key->setText(key);
    if (m_remember->isEnabled())
        m_remember->setChecked(true);
}

void ConnectDialog::updateRemember()
{
    const bool unavailable =
        m_credentials && m_credentials->availability() == CredentialStore::Availability::Unavailable;
    m_remember->setEnabled(m_credentials && !unavailable);
    if (!m_remember->isEnabled())
        m_remember->setChecked(false);
    if (!m_credentials)
        m_rememberNote->setText(tr("Keys are kept for this session only."));
    else if (unavailable)
        m_rememberNote->setText(m_credentials->unavailableReason());
    else
        m_rememberNote->setText(tr("Otherwise the key is kept until Switchyard quits."));
    m_remember->setToolTip(m_rememberNote->text());
}

void ConnectDialog::setKeyShown(bool shown)
{
    m_key->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password);
    m_showKey->setText(shown ? tr("Hide") : tr("Show"));
}

} // namespace switchyard::ui
