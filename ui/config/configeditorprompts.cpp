#include "configeditorprompts.h"

#include <QFileDialog>
#include <QMessageBox>
#include <QPushButton>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

// The editor's words, translated in its context.
ConfigEditor::Choice askAboutUnsavedEdits(QWidget *parent, ConfigEditor::Reason reason,
                                          const QString &documentName)
{
    using Choice = ConfigEditor::Choice;
    QMessageBox box(parent);
    box.setObjectName(u"unsavedQuestion"_s);
    box.setIcon(QMessageBox::Question);
    box.setWindowTitle(ConfigEditor::tr("Unsaved config edits"));
    if (reason == ConfigEditor::Reason::Reload) {
        box.setText(ConfigEditor::tr("Reloading replaces your unsaved edits to %1 with the file on disk.")
                        .arg(documentName));
        box.setInformativeText(ConfigEditor::tr("Undo brings them back afterwards."));
        QPushButton *reloadButton = box.addButton(ConfigEditor::tr("Reload"), QMessageBox::DestructiveRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        return box.clickedButton() == reloadButton ? Choice::Discard : Choice::Cancel;
    }
    box.setText(ConfigEditor::tr("%1 has unsaved edits.").arg(documentName));
    box.setInformativeText(reason == ConfigEditor::Reason::Close
                               ? ConfigEditor::tr("Save them before quitting?")
                               : ConfigEditor::tr("Save them before opening another config?"));
    box.setStandardButtons(QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save:
        return Choice::Save;
    case QMessageBox::Discard:
        return Choice::Discard;
    default:
        return Choice::Cancel;
    }
}

QString askForConfigFile(QWidget *parent, ConfigEditor::FileRole role, const QString &suggestion)
{
    using Role = ConfigEditor::FileRole;
    const QString filter = ConfigEditor::tr("Config files (*.json);;All files (*)");
    switch (role) {
    case Role::Open:
        return QFileDialog::getOpenFileName(parent, ConfigEditor::tr("Open a config file"), suggestion,
                                            filter);
    case Role::Import:
        return QFileDialog::getOpenFileName(parent, ConfigEditor::tr("Import a Bifrost config.json"),
                                            suggestion, filter);
    case Role::SaveAs:
        return QFileDialog::getSaveFileName(parent, ConfigEditor::tr("Save the config as"), suggestion,
                                            filter);
    case Role::ExportBifrost:
        return QFileDialog::getSaveFileName(parent, ConfigEditor::tr("Export a Bifrost config"), suggestion,
                                            filter);
    }
    return {};
}

} // namespace switchyard::ui
