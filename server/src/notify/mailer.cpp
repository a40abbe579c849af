#include "notify/mailer.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "crypto.hpp"
#include "tables/stored_game.hpp"

namespace gcor::server {

namespace {

using namespace std::chrono_literals;

constexpr std::size_t kBatch = 10;                      // mails taken from the queue at once
constexpr UnixMs kReminderHorizon = 24 * 3600 * 1000;   // a deadline within a day
constexpr UnixMs kConfirmationLife = 24 * 3600 * 1000;  // a confirmation link works this long
constexpr UnixMs kKeepEnded = 30LL * 24 * 3600 * 1000;  // keys of ended mails stay taken
constexpr std::chrono::milliseconds kMaxRetry = 1h;
constexpr std::chrono::milliseconds kIdleWait = 5s;
constexpr std::chrono::milliseconds kSendMargin = 10s;  // a mail's checks beside the relay's time

UnixMs ms(std::chrono::milliseconds duration) {
    return duration.count();
}

// The language an address's mails are written in (English for one the store does not know).
Language language_of(const StoredEmail& email) {
    return protocol::parse_language(email.language).value_or(Language::en);
}

// Whether a table's clock gives at least two days a move: a shorter one's turn mail already says
// that the deadline is within a day.
bool worth_reminding(const StoredTable& table) {
    const auto settings = StoredGame::read_settings(table);
    return settings && settings->clock.kind == protocol::TimeControl::Kind::correspondence &&
           settings->clock.days >= 2;
}

}  // namespace

Mailer::Mailer(Store& store, Metrics& metrics, MailSettings settings)
    : store_(store),
      metrics_(metrics),
      settings_(std::move(settings)),
      secret_(store_.secret("unsubscribe", secure_random_hex(32))),
      signal_(std::make_shared<Signal>()),
      choices_(store, settings_.digest_every) {
    const auto at = settings_.from.address.rfind('@');
    host_ = at == std::string::npos ? "localhost" : settings_.from.address.substr(at + 1);
}

Mailer::~Mailer() {
    stop();
}

void Mailer::start(std::string site_url) {
    site_url_ = std::move(site_url);
    if (!enabled() || thread_.joinable()) return;
    init_smtp();
    thread_ = std::thread([this] { run(); });
}

void Mailer::stop() {
    {
        std::lock_guard lock(signal_->mutex);
        signal_->stopping = true;
    }
    signal_->changed.notify_all();
    if (thread_.joinable()) thread_.join();
}

// --- Addresses -----------------------------------------------------------------------------------

void Mailer::set_address(std::uint64_t user, const std::string& name, const std::string& address,
                         Language language) {
    const std::string token = new_token();
    const UnixMs now = unix_now_ms();
    choices_.set_address(user, address, token_hash(token), now + kConfirmationLife, language);
    StoredEmail email{user,         address,
                      false,        MailFrequency::each_turn,
                      std::nullopt, std::string(protocol::language_id(language))};
    const std::string link = site_url_ + "/api/email/confirm?token=" + token;
    // The token's hash names the mail: a new address (or the same again) is a new mail.
    queue(mail_to(email, MailKind::confirm, "confirm:" + token_hash(token),
                  confirmation_mail(name, address, link, language), now));
}

std::string Mailer::signature(std::uint64_t user) {
    return hmac_sha256_hex(secret_, "unsubscribe:" + std::to_string(user));
}

bool Mailer::unsubscribe(std::uint64_t user, const std::string& signature) {
    if (!same_secret(signature, this->signature(user))) return false;
    if (choices_.email_of(user)) choices_.set_frequency(user, MailFrequency::off);
    spdlog::info("user {} unsubscribed from mail", user);
    return true;
}

void Mailer::password_reset(const StoredEmail& email, const std::string& name,
                            const std::string& token) {
    // The web client's page reads the token from its route and posts it with the new password.
    const std::string link = site_url_ + "/#/reset?token=" + token;
    queue(mail_to(email, MailKind::password_reset, "password_reset:" + token_hash(token),
                  password_reset_mail(name, link, language_of(email)), unix_now_ms()));
}

// --- Notices
// --------------------------------------------------------------------------------------

bool Mailer::wants_turn_mail(std::uint64_t user) {
    if (!enabled()) return false;
    const auto email = choices_.cached(user);
    return email && email->confirmed && email->frequency == MailFrequency::each_turn;
}

void Mailer::turn(const TurnNotice& notice) {
    const auto email = choices_.cached(notice.user);
    if (!enabled() || !email || !email->confirmed || email->frequency != MailFrequency::each_turn)
        return;
    const MailTable table{notice.table, table_link(notice.table), notice.players, notice.deadline,
                          true,         notice.table_name};
    QueuedMail mail = mail_to(*email, MailKind::turn,
                              "turn:" + notice.table + ":" + std::to_string(notice.seat) + ":" +
                                  std::to_string(notice.last_own_move),
                              turn_mail(notice.name, table, language_of(*email)),
                              unix_now_ms() + ms(settings_.delay));
    mail.table = notice.table;
    mail.seat = notice.seat;
    mail.version = notice.version;
    queue(std::move(mail));
}

void Mailer::invitation(const InvitationNotice& notice) {
    const auto email = choices_.cached(notice.user);
    if (!enabled() || !email || !email->confirmed || !email->invitation_mails) return;
    const MailTable table{notice.table, table_link(notice.table), notice.players, std::nullopt,
                          false,        notice.table_name};
    QueuedMail mail = mail_to(*email, MailKind::invitation,
                              "invitation:" + notice.table + ":" + std::to_string(notice.user) +
                                  ":" + std::to_string(notice.at),
                              invitation_mail(notice.name, notice.host, table, language_of(*email)),
                              unix_now_ms());
    mail.table = notice.table;
    mail.seat = notice.seat;
    queue(std::move(mail));
}

void Mailer::season_started(std::uint64_t user, const std::string& name, const std::string& league,
                            std::uint64_t league_id, int season, int division,
                            const std::vector<SeasonTableNotice>& tables,
                            const std::vector<std::string>& your_turn) {
    const auto email = choices_.cached(user);
    if (!enabled() || !email || !email->confirmed || email->frequency == MailFrequency::off) return;
    std::vector<MailTable> listed;
    for (const SeasonTableNotice& table : tables)
        listed.push_back(MailTable{table.table,
                                   table_link(table.table),
                                   table.players,
                                   table.deadline,
                                   std::ranges::find(your_turn, table.table) != your_turn.end(),
                                   {}});  // a league's tables have no name of their own
    queue(mail_to(*email, MailKind::season,
                  "season:" + std::to_string(league_id) + ":" + std::to_string(season) + ":" +
                      std::to_string(user),
                  season_mail(name, league, season, division, listed, language_of(*email)),
                  unix_now_ms()));
}

void Mailer::tournament_round(std::uint64_t user, const std::string& name,
                              const std::string& tournament, std::uint64_t tournament_id, int round,
                              const SeasonTableNotice& table, bool your_turn) {
    const auto email = choices_.cached(user);
    if (!enabled() || !email || !email->confirmed || email->frequency == MailFrequency::off) return;
    const MailTable listed{
        table.table, table_link(table.table), table.players, table.deadline, your_turn, {}};
    queue(mail_to(*email, MailKind::tournament_round,
                  "tournament:" + std::to_string(tournament_id) + ":" + std::to_string(round) +
                      ":" + std::to_string(user),
                  tournament_round_mail(name, tournament, round, listed, language_of(*email)),
                  unix_now_ms()));
}

QueuedMail Mailer::mail_to(const StoredEmail& email, MailKind kind, std::string key,
                           const MailContent& content, UnixMs due) {
    MailHeaders headers;
    headers.from = settings_.from;
    headers.to = email.address;
    headers.date = unix_now_ms();
    headers.message_id = token_hash(key).substr(0, 32) + "@" + host_;
    headers.language = language_of(email);
    // Nothing but the confirmation goes to an address before it is confirmed, and that one is
    // not a list to leave; nor is a password's reset, which the reader asked for.
    if (kind != MailKind::confirm && kind != MailKind::password_reset)
        headers.unsubscribe = site_url_ +
                              "/api/email/unsubscribe?user=" + std::to_string(email.user) +
                              "&sig=" + signature(email.user);
    QueuedMail mail;
    mail.key = std::move(key);
    mail.kind = kind;
    mail.user = email.user;
    mail.recipient = email.address;
    mail.message = compose_mail(headers, content);
    mail.due = due;
    return mail;
}

std::string Mailer::table_link(const std::string& table) const {
    return site_url_ + "/#/table/" + table;
}

void Mailer::queue(QueuedMail mail) {
    // The writer thread runs `done`, perhaps after this mailer is gone: it holds the signal only.
    store_.queue_mail(mail, [signal = signal_, key = mail.key](bool ok) {
        if (!ok) {
            spdlog::error("mail {} could not be queued: the store failed", key);
            return;
        }
        {
            std::lock_guard lock(signal->mutex);
            signal->woken = true;
        }
        signal->changed.notify_all();
    });
}

// --- Sending
// --------------------------------------------------------------------------------------

void Mailer::run() {
    UnixMs next_sweep = 0;
    for (;;) {
        UnixMs wake_at = unix_now_ms() + ms(kIdleWait);
        try {
            const UnixMs now = unix_now_ms();
            if (now >= next_sweep) {
                sweep(now);
                next_sweep = now + std::min<UnixMs>(10'000, ms(settings_.digest_every) / 4);
            }
            // Each mail of the batch may take the relay's whole timeout: the batch is kept from
            // other servers on the database (and sent again by one if this one dies) until
            // every mail of it could have been tried.
            const UnixMs kept_until =
                now + static_cast<UnixMs>(kBatch) * (ms(settings_.smtp.timeout) + ms(kSendMargin));
            for (const QueuedMail& mail : store_.take_due_mails(now, kBatch, kept_until)) {
                if (stopping()) return;
                deliver(mail, unix_now_ms());
            }
            if (const auto next = store_.next_mail_due()) wake_at = std::min(wake_at, *next);
            wake_at = std::min(wake_at, next_sweep);
        } catch (const StorageFailure& failure) {
            spdlog::warn("mail: {}; trying again in 5 seconds", failure.what());
        }
        std::unique_lock lock(signal_->mutex);
        signal_->changed.wait_until(
            lock, std::chrono::system_clock::time_point(std::chrono::milliseconds(wake_at)),
            [&] { return signal_->stopping || signal_->woken; });
        if (signal_->stopping) return;
        signal_->woken = false;
    }
}

bool Mailer::stopping() {
    std::lock_guard lock(signal_->mutex);
    return signal_->stopping;
}

bool Mailer::still_wanted(const QueuedMail& mail) {
    const auto email = store_.email_of(mail.user);
    if (!email || email->address != mail.recipient) return false;
    if (mail.kind == MailKind::confirm) return !email->confirmed;
    // Asked for just now: whatever mail the user wants about games.
    if (mail.kind == MailKind::password_reset) return email->confirmed;
    if (mail.kind == MailKind::invitation) {
        // Only while the invitation is open: its seat still kept for the user.
        if (!email->confirmed || !email->invitation_mails) return false;
        const auto table = store_.find_table(mail.table);
        if (!table || table->status != TableStatus::waiting) return false;
        const StoredSeat& seat = table->seats.at(static_cast<std::size_t>(mail.seat));
        return seat.kind == SeatKind::reserved && seat.user == mail.user;
    }
    if (!email->confirmed || email->frequency == MailFrequency::off) return false;
    if (mail.kind == MailKind::turn && email->frequency != MailFrequency::each_turn) return false;
    if (mail.table.empty()) return true;
    const auto table = store_.find_table(mail.table);
    return table && table->version == mail.version && table->turn_of(mail.seat);
}

void Mailer::deliver(const QueuedMail& mail, UnixMs now) {
    if (!still_wanted(mail)) {
        store_.end_mail(mail.id, MailOutcome::dropped, now);
        metrics_.mails_dropped.fetch_add(1, std::memory_order_relaxed);
        spdlog::debug("mail {} dropped: no longer wanted", mail.key);
        return;
    }
    const std::string refused = send_smtp(settings_.smtp, mail.recipient, mail.message);
    if (refused.empty()) {
        store_.end_mail(mail.id, MailOutcome::sent, unix_now_ms());
        metrics_.mails_sent.fetch_add(1, std::memory_order_relaxed);
        spdlog::debug("mail {} sent", mail.key);
        return;
    }
    const int attempts = mail.attempts + 1;
    if (attempts >= settings_.attempts) {
        store_.end_mail(mail.id, MailOutcome::failed, unix_now_ms());
        metrics_.mails_failed.fetch_add(1, std::memory_order_relaxed);
        spdlog::warn("mail {} given up after {} attempts: {}", mail.key, attempts, refused);
        return;
    }
    const auto wait = std::min<std::chrono::milliseconds>(
        settings_.first_retry * (1LL << std::min(attempts - 1, 16)), kMaxRetry);
    store_.retry_mail(mail.id, unix_now_ms() + ms(wait));
    spdlog::warn("mail {}, attempt {}: {}; next in {} s", mail.key, attempts, refused,
                 wait.count() / 1000);
}

void Mailer::sweep(UnixMs now) {
    for (const StoredEmail& email : store_.digests_due(now)) {
        std::vector<MailTable> tables;
        for (const UserTable& mine : store_.tables_of(email.user, 200))
            if (mine.table.turn_of(mine.seat)) tables.push_back(mail_table(mine.table, true));
        const auto user = store_.user_by_id(email.user);
        if (!tables.empty() && user)
            queue(mail_to(
                email, MailKind::digest,
                "digest:" + std::to_string(email.user) + ":" + std::to_string(*email.digest_due),
                digest_mail(user->name, tables, language_of(email)), now));
        // A digest missed while the server was down is not made up for with several.
        UnixMs next = *email.digest_due + ms(settings_.digest_every);
        if (next <= now) next = now + ms(settings_.digest_every);
        store_.set_mail_frequency(email.user, MailFrequency::daily, next);
    }

    // Reminders: each deadline is looked at once, as it comes within a day.
    const UnixMs from = std::max(reminders_until_, now);
    reminders_until_ = now + kReminderHorizon;
    for (const std::string& id : store_.deadlines_between(from, reminders_until_)) {
        const auto table = store_.find_table(id);
        if (!table || !table->to_act || !table->turn_of(*table->to_act) || !worth_reminding(*table))
            continue;
        const int seat = *table->to_act;
        const StoredSeat& player = table->seats.at(static_cast<std::size_t>(seat));
        if (player.kind != SeatKind::human) continue;
        const auto email = store_.email_of(player.user);
        if (!email || !email->confirmed || email->frequency == MailFrequency::off) continue;
        QueuedMail mail = mail_to(
            *email, MailKind::reminder, "reminder:" + id + ":" + std::to_string(table->version),
            reminder_mail(player.name, mail_table(*table, true), language_of(*email)), now);
        mail.table = id;
        mail.seat = seat;
        mail.version = table->version;
        queue(std::move(mail));
    }

    if (now >= next_forget_) {
        store_.forget_mails(now - kKeepEnded);
        next_forget_ = now + 3600 * 1000;
    }
}

std::vector<std::string> Mailer::names_of(const StoredTable& table) {
    std::vector<std::string> names;
    for (const StoredSeat& seat : table.seats)
        if (seat.kind == SeatKind::human || seat.kind == SeatKind::bot) names.push_back(seat.name);
    return names;
}

std::string Mailer::given_name(const StoredTable& table) {
    const auto settings = StoredGame::read_settings(table);
    return settings ? settings->name : std::string();
}

MailTable Mailer::mail_table(const StoredTable& table, bool your_turn) const {
    return MailTable{table.id,  table_link(table.id), names_of(table), table.deadline,
                     your_turn, given_name(table)};
}

}  // namespace gcor::server
