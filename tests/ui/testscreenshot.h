#pragma once

// For a look at what a UI test left on screen: with SWITCHYARD_SCREENSHOT_DIR set (the directory must
// exist), the widget is grabbed at the given size into that directory under name. Offscreen renders too.
// Nothing happens without the variable, so the suite's runs write no files.

#include <QCoreApplication>
#include <QSize>
#include <QString>
#include <QTest>
#include <QWidget>

namespace switchyard::testing {

inline void saveScreenshot(QWidget &window, const QString &name, QSize size = QSize(1400, 860))
{
    const QString dir = qEnvironmentVariable("SWITCHYARD_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    window.resize(size);
    QCoreApplication::processEvents();
    QVERIFY(window.grab().save(dir + u'/' + name));
}

} // namespace switchyard::testing
