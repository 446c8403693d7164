#include "configeditoractions.h"

#include "configeditor.h"

#include <QAction>
#include <QApplication>
#include <QPushButton>
#include <QStyle>
#include <QToolBar>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

// The editor's words, translated in its context.
ConfigEditorActions ConfigEditorActions::create(ConfigEditor *editor)
{
    QStyle *style = QApplication::style();
    auto action = [editor](const QString &text, const QKeySequence &key, const QString &tip) {
        auto *a = new QAction(text, editor);
        if (!key.isEmpty())
            a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        a->setToolTip(key.isEmpty() ? tip : tip + u" ("_s + key.toString(QKeySequence::NativeText) + u')');
        editor->addAction(a);
        return a;
    };
    ConfigEditorActions a;
    a.open = action(ConfigEditor::tr("Open\u2026"), {},
                    ConfigEditor::tr("Open a config file, apply it and edit it here"));
    a.open->setIcon(style->standardIcon(QStyle::SP_DialogOpenButton));
    a.import = action(
        ConfigEditor::tr("Import Bifrost\u2026"), {},
        ConfigEditor::tr("Load a Bifrost config.json as it is, without applying it; Save As makes it a "
                         "Switchyard config"));
    a.save = action(
        ConfigEditor::tr("Save"), QKeySequence::Save,
        ConfigEditor::tr("Save the config (the previous version is kept as .bak; an invalid config is never "
                         "written)"));
    a.save->setIcon(style->standardIcon(QStyle::SP_DialogSaveButton));
    a.saveAs = action(ConfigEditor::tr("Save As\u2026"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
                      ConfigEditor::tr("Save the config under another name"));
    a.exportBifrost = action(
        ConfigEditor::tr("Export for Bifrost\u2026"), {},
        ConfigEditor::tr("Write a Bifrost-compatible file: the same providers, without Switchyard's own "
                         "section"));
    a.undo = action(ConfigEditor::tr("Undo"), QKeySequence::Undo,
                    ConfigEditor::tr("Undo the last change, in the text or the form"));
    a.redo = action(ConfigEditor::tr("Redo"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z),
                    ConfigEditor::tr("Redo"));
    a.redo->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    a.reload = action(ConfigEditor::tr("Reload"), {},
                      ConfigEditor::tr("Read the file again from disk (asks about unsaved edits)"));
    a.reload->setIcon(style->standardIcon(QStyle::SP_BrowserReload));
    a.apply = action(
        ConfigEditor::tr("Apply"), QKeySequence(Qt::CTRL | Qt::Key_Return),
        ConfigEditor::tr("Validate and put this config into service: requests in flight finish on the old "
                         "one, nothing restarts"));
    a.apply->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    a.undo->setEnabled(false);
    a.redo->setEnabled(false);
    return a;
}

QToolBar *ConfigEditorActions::buildToolBar(ConfigEditor *editor, QPushButton *applyButton) const
{
    auto *toolbar = new QToolBar(editor);
    toolbar->setObjectName(u"configToolBar"_s);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setIconSize(QSize(16, 16));
    toolbar->addAction(open);
    toolbar->addAction(import);
    toolbar->addSeparator();
    toolbar->addAction(save);
    toolbar->addAction(saveAs);
    toolbar->addAction(exportBifrost);
    toolbar->addSeparator();
    toolbar->addAction(undo);
    toolbar->addAction(redo);
    toolbar->addSeparator();
    toolbar->addAction(reload);
    auto *spacer = new QWidget(toolbar);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    toolbar->addWidget(spacer);
    applyButton->setObjectName(u"applyButton"_s);
    applyButton->setToolTip(apply->toolTip());
    applyButton->setDefault(true);
    applyButton->setMinimumWidth(90);
    toolbar->addWidget(applyButton);
    return toolbar;
}

} // namespace switchyard::ui
