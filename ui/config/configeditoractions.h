#pragma once

// The config editor's commands: one QAction each, with its text, shortcut and tooltip, added to the editor
// so the shortcuts work in the text and in the form alike; and the toolbar that shows them, with the Apply
// button at its end. The editor connects what they do.

class QAction;
class QPushButton;
class QToolBar;

namespace switchyard::ui {

class ConfigEditor;

struct ConfigEditorActions
{
    QAction *open = nullptr;
    QAction *import = nullptr;
    QAction *save = nullptr;
    QAction *saveAs = nullptr;
    QAction *exportBifrost = nullptr;
    QAction *undo = nullptr;
    QAction *redo = nullptr;
    QAction *reload = nullptr;
    QAction *apply = nullptr;

    static ConfigEditorActions create(ConfigEditor *editor);
    QToolBar *buildToolBar(ConfigEditor *editor, QPushButton *applyButton) const;
};

} // namespace switchyard::ui
