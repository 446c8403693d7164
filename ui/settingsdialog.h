#pragma once

// File ▸ Settings: the panel's preferences, stored with QSettings in the per-user config directory
// (~/.config/Switchyard/switchyard.conf on Linux). For now the language: follow the system, or English /
// 简体中文 whatever the system says; it applies the next time Switchyard starts (widgets built in one
// language are not re-translated live).

#include "language.h"

#include <QDialog>

class QComboBox;
class QLabel;

namespace switchyard::ui {

class SettingsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SettingsDialog)

public:
    // running: the language the panel was started in (to say whether a restart is needed).
    explicit SettingsDialog(i18n::Language running, QWidget *parent = nullptr);

    i18n::Language language() const;
    void setLanguage(i18n::Language language);
    // True when the chosen language differs from the one the panel runs in.
    bool restartNeeded() const;

    void accept() override; // stores the settings

    // The "System" entry: names what the system is set to, in that language ("System (Deutsch)"); a
    // locale that names no language (C, POSIX) is shown as what the panel then speaks, English.
    static QString systemEntryText(const QLocale &system);

private:
    void updateRestartNote();

    i18n::Language m_running;
    QComboBox *m_language;
    QLabel *m_restartNote;
};

} // namespace switchyard::ui
