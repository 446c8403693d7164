#pragma once

// Exporting a config for Bifrost: the same file without what only Switchyard reads, so an operator can
// move a setup between the two gateways (the panel's Export, `--export-bifrost`).

#include "common/expected.h"
#include "config/configproblem.h"

#include <QByteArray>
#include <QByteArrayView>

namespace switchyard::config {

// The document without its top-level "switchyard" object, pretty-printed with 2-space indents and keys in
// their original order: a file Bifrost can load unchanged. "env.NAME" references are kept as written (the
// target has its own environment), so unset variables are not an error here; every other problem in what
// is exported is, because exporting a config Bifrost would reject (or misread) helps nobody.
Expected<QByteArray, ConfigProblems> exportBifrostConfig(QByteArrayView json);

} // namespace switchyard::config
