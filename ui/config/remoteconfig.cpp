#include "remoteconfig.h"

#include "configeditor.h"

#include <QMessageBox>
#include <QPushButton>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

RemoteConfig::RemoteConfig(link::GatewayLink *gatewayLink, ConfigEditor *editor, QObject *parent)
    : QObject(parent), m_link(gatewayLink), m_editor(editor)
{
    // The gateway resolves env.NAME with its own environment: here every reference counts as set.
    m_editor->setEnvironment([](const QString &) { return std::optional<QString>(u"(set on the gateway)"_s); });
    m_editor->setTextApplier([this](const QByteArray &text) {
        if (!m_link) {
            m_editor->finishApply(false, tr("there is no gateway to apply it to"));
            return;
        }
        m_sent = text;
        m_link->putConfig(text, m_hash);
    });
    connect(gatewayLink, &link::GatewayLink::configFetched, this, &RemoteConfig::onFetched);
    connect(gatewayLink, &link::GatewayLink::configPut, this, &RemoteConfig::onPut);
}

void RemoteConfig::fetch()
{
    if (!m_link)
        return;
    m_fetchPending = true;
    m_link->fetchConfig();
}

void RemoteConfig::onFetched(const QByteArray &text, const QString &hash)
{
    if (!m_fetchPending)
        return;
    m_fetchPending = false;
    m_hash = hash;
    m_editor->setUntitledText(QString::fromUtf8(text), tr("the config of %1").arg(m_link->displayName()));
    m_editor->markApplied();
}

RemoteConfig::StaleChoice RemoteConfig::askStale()
{
    if (m_prompt)
        return m_prompt();
    QMessageBox box(QMessageBox::Question, tr("The gateway's config changed"),
                    tr("Someone changed the config of %1 since it was read here.").arg(m_link->displayName()),
                    QMessageBox::NoButton, m_editor);
    box.setInformativeText(tr("Reload the gateway's config (your edits are replaced, Undo brings them back), or "
                              "overwrite it with your text?"));
    QPushButton *reload = box.addButton(tr("Reload the gateway's config"), QMessageBox::AcceptRole);
    QPushButton *overwrite = box.addButton(tr("Overwrite"), QMessageBox::DestructiveRole);
    box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(reload);
    box.exec();
    if (box.clickedButton() == reload)
        return StaleChoice::Reload;
    if (box.clickedButton() == overwrite)
        return StaleChoice::Overwrite;
    return StaleChoice::Cancel;
}

void RemoteConfig::onPut(const link::ConfigPutResult &r)
{
    if (!m_editor->isApplyPending())
        return; // not the editor's apply
    using Outcome = link::ConfigPutResult::Outcome;
    switch (r.outcome) {
    case Outcome::Applied:
        if (!r.configHash.isEmpty())
            m_hash = r.configHash;
        m_editor->finishApply(true, r.summary.isEmpty() ? tr("no changes") : r.summary);
        return;
    case Outcome::Invalid:
        m_editor->finishApply(false, tr("the gateway refused the config: %1").arg(r.problems.join(u"; "_s)));
        return;
    case Outcome::Failed:
        m_editor->finishApply(false, r.reason.isEmpty() ? tr("the gateway did not answer") : r.reason);
        return;
    case Outcome::Stale:
        break;
    }
    switch (askStale()) {
    case StaleChoice::Reload:
        m_editor->finishApply(false, tr("the gateway's config changed meanwhile; it is reloaded here"));
        fetch();
        return;
    case StaleChoice::Overwrite:
        // Unconditional this time (no If-Match): the operator has seen the warning. Still pending.
        m_link->putConfig(m_sent, QString());
        return;
    case StaleChoice::Cancel:
        m_editor->finishApply(false, tr("the gateway's config changed meanwhile (%1)").arg(r.reason));
        return;
    }
}

} // namespace switchyard::ui
