#pragma once

// Where Help ▸ Documentation leads. The guide that came with this copy of Switchyard, so an operator on
// a server room workstation without internet still gets it: the package's
// /usr/share/doc/switchyard/README.md (found relative to the program, whatever the prefix), else the
// README of the source tree a developer build came from, else the project's page on the web.

#include <QUrl>

namespace switchyard::ui {

QUrl documentationUrl();

// The first of these that exists, as a file URL; the web page when none does. Split out for the tests.
QUrl documentationUrlFrom(const QStringList &candidates);

} // namespace switchyard::ui
