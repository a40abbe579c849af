#include "tables/table.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <ranges>

#include "crypto.hpp"
#include "gcor/protocol/events.hpp"
#include "gcor/protocol/view_json.hpp"

// The table's life: making and restoring it, its state, its commits. Its requests are in
// table_requests.cpp; its game in progress is TablePlay's, its retirement TableRetirement's.
namespace gcor::server {

using protocol::Json;

// --- Making and restoring -----------------------------------------------------------------------

Table::Table(net::io_context& io, const TableServices& services, TableHost& host, StoredGame record)
    : services_(services),
      strand_(net::make_strand(io)),
      record_(std::move(record)),
      settings_(record_.settings()),
      id_json_(Json(record_.id()).dump()),
      status_(services.metrics),
      seats_(settings_.options.players),
      game_(settings_.undo),
      writes_(services.store, pipeline_, strand_, [this] { return shared_from_this(); }),
      refusals_(record_.id(), record_.row().creator, services.metrics, services.blocks, writes_),
      clock_(settings_.clock, services.vacations, latest_deadline(settings_)),
      chat_(record_.id(), settings_, services.chat_store, services.chat, refusals_,
            services.blocking, strand_, seats_, followers_, [this] { return shared_from_this(); }),
      views_(record_.id(), host, settings_.is_public, services.metrics, status_, game_,
             chat_.lines(), followers_, [this] { return summary(); }),
      turn_(record_.id(), settings_.name, services.turns, clock_, status_, seats_, game_,
            followers_),
      bots_(
          play_, [this] { return shared_from_this(); }, strand_, services.bots, services.bot_time,
          services.bot_delay, record_.row().seed ^ 0x9e3779b97f4a7c15ull, status_, seats_, game_,
          clock_),
      retirement_(record_.id(), this, host,
                  {pipeline_, writes_, bots_, followers_, views_, status_, seats_, game_}),
      news_(retirement_, [this] { return shared_from_this(); }, record_.id(), id_json_, services_,
            host, strand_,
            {status_, game_, seats_, clock_, followers_, writes_, turn_, bots_, pipeline_, chat_,
             views_}),
      invitations_(record_.id(), *this, retirement_, services.turns, status_, seats_, refusals_,
                   views_),
      account_changes_(record_.id(), *this,
                       {status_, seats_, game_, clock_, followers_, chat_.lines(), views_, bots_,
                        invitations_, retirement_}),
      play_(record_, id_json_, services_, *this,
            {status_, seats_, game_, clock_, turn_, followers_, writes_, views_, bots_, refusals_,
             retirement_, invitations_}) {}

std::shared_ptr<Table> Table::create(net::io_context& io, const TableServices& services,
                                     TableHost& host, std::string id,
                                     const protocol::TableSettings& settings, std::uint64_t seed,
                                     std::uint64_t creator) {
    std::shared_ptr<Table> table(
        new Table(io, services, host,
                  StoredGame(std::move(id), settings, seed, secure_random_hex(16), creator)));
    // Nothing reaches the table before save stored it.
    table->pipeline_ = CommitPipeline(CommitPipeline::Stage::unsaved);
    for (int seat = 0; seat < settings.options.players; ++seat)
        if (const auto bot = settings.bots[static_cast<std::size_t>(seat)])
            table->seats_.seat_bot(static_cast<engine::Seat>(seat), *bot);
    return table;
}

std::shared_ptr<Table> Table::restore(net::io_context& io, const TableServices& services,
                                      TableHost& host, LoadedTable loaded) {
    const std::string id = loaded.table.id;
    auto broken = [&](const std::string& why) -> std::shared_ptr<Table> {
        spdlog::error("table {} cannot be loaded: {}", id, why);
        return nullptr;
    };
    auto game = StoredGame::read(std::move(loaded.table), std::move(loaded.moves));
    if (!game) return broken(game.error().message);
    // Replayed before the table keeps the record without its moves.
    auto replayed = game->replay();
    if (!replayed) return broken(replayed.error().message);
    const std::vector<StoredMove> moves = game->take_moves();

    std::shared_ptr<Table> table(new Table(io, services, host, std::move(*game)));
    const StoredTable& stored = table->record_.row();
    if (const auto refused = restore_seats(table->seats_, stored.seats)) return broken(*refused);
    table->writes_.set_revision(stored.revision);
    table->chat_.lines().restore(std::move(loaded.chat), loaded.chat_lines);
    if (stored.status == TableStatus::waiting) return table;

    table->play_.begin(std::move(*replayed), moves);
    table->status_.set(table->game_.state().over() ? TableStatus::finished : TableStatus::playing);
    if (table->status_ == TableStatus::playing)
        table->clock_.restore(stored.deadline, moves,
                              table->seats_[table->game_.state().to_act()].user.id);
    table->bots_.take_over(moves.empty() ? 0 : moves.back().at);
    return table;
}

// --- State --------------------------------------------------------------------------------------

StoredTable Table::stored() const {
    StoredTable table = record_.row();
    set_progress(table, play_.progress());
    table.seats = stored_seats(seats_);
    return table;
}

Json Table::summary() const {
    const StoredTable table = stored();
    Json summary =
        summary_json(table, settings_, services_.vacations.seats_away(table.seats, unix_now_ms()));
    if (retirement_.closed()) summary["status"] = "closed";
    return summary;
}

void Table::on_news(const StoreNews& news) {
    net::post(strand_, [self = shared_from_this(), news] { self->news_.on_news(news); });
}

void Table::reread(std::function<void()> then) {
    news_.reread(std::move(then));
}

// --- Commits ------------------------------------------------------------------------------------

void Table::save(std::function<void(bool ok)> then) {
    writes_.save([this] { return stored(); },
                 [this, then = std::move(then)](Written written) {
                     if (written != Written::committed)
                         retirement_.retire_after_failure(written == Written::conflict);
                     then(written == Written::committed);
                 });
}

void Table::resend_state(const std::shared_ptr<Peer>& peer) {
    views_.resend_state(peer);
}

}  // namespace gcor::server
