// libpq (PostgreSQL's C client) for Swift. Only Sources/Postgres imports this module.
#ifndef EXHIBIT_CPQ_SHIM_H
#define EXHIBIT_CPQ_SHIM_H
#include <libpq-fe.h>

// Diagnostic field codes of PQresultErrorField (character-literal macros in
// postgres_ext.h, which Swift does not import).
static const int cpq_diag_sqlstate = PG_DIAG_SQLSTATE;
static const int cpq_diag_message_primary = PG_DIAG_MESSAGE_PRIMARY;
static const int cpq_diag_message_detail = PG_DIAG_MESSAGE_DETAIL;
static const int cpq_diag_constraint_name = PG_DIAG_CONSTRAINT_NAME;
static const int cpq_diag_table_name = PG_DIAG_TABLE_NAME;
static const int cpq_diag_severity_nonlocalized = PG_DIAG_SEVERITY_NONLOCALIZED;

// A notice receiver that drops server notices (libpq's default prints them on stderr).
static inline void cpq_drop_notice(void *arg, const PGresult *res) { (void)arg; (void)res; }
static inline void cpq_silence_notices(PGconn *conn) { PQsetNoticeReceiver(conn, cpq_drop_notice, NULL); }
#endif
