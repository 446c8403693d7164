#pragma once

// The questions the config editor asks when nothing else answers them (tests inject their answers): what
// to do with unsaved edits, and which file to open, import, save to or export to.

#include "configeditor.h"

namespace switchyard::ui {

// A modal message box: Save / Discard / Cancel (for a reload: Reload / Cancel, since Undo brings the edits
// back).
ConfigEditor::Choice askAboutUnsavedEdits(QWidget *parent, ConfigEditor::Reason reason,
                                          const QString &documentName);
// A file dialog; empty when cancelled.
QString askForConfigFile(QWidget *parent, ConfigEditor::FileRole role, const QString &suggestion);

} // namespace switchyard::ui
