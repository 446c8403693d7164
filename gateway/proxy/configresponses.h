#pragma once

// The answers of GET and PUT /api/config (docs/MANAGEMENT-API.md): the masked running config with its
// hash as ETag, the problems of an invalid one, the refusal of a stale If-Match, and what an applied
// one changed.

#include "config/config.h"
#include "config/configdiff.h"
#include "config/configproblem.h"
#include "proxy/localresponse.h"

#include <QString>

namespace switchyard::proxy {

// 200: the running config, secrets masked (link::maskedConfigText), ETag: "<configHash>".
LocalResponse configDocumentResponse(const config::GatewayConfig &config);
// 422: OpenAI-shaped error plus the list, each with its path or line and column, so a script (or an
// editor) can point at them.
LocalResponse configProblemsResponse(const config::ConfigProblems &problems);
// 412: the running config is no longer the one the If-Match named; nothing applied. Carries the
// current hash, so the editor can offer to reload or to overwrite.
LocalResponse configStaleResponse(const QString &currentHash);
// 200 after an apply: the changes in words and as lists, where the file was saved, the new hash.
LocalResponse configAppliedResponse(const config::ConfigChanges &changes, quint64 generation,
                                    const QString &listenError, const QString &savedTo,
                                    const QString &configHash);

// The ETag header value for a config hash: the hash in quotes.
QByteArray configEtag(const QString &configHash);

} // namespace switchyard::proxy
