#include "tables/table_writes.hpp"

#include <boost/asio/post.hpp>

namespace gcor::server {

TableStorage::TableDone TableWrites::on_strand(Done done) {
    return [this, owner = owner_(), done = std::move(done)](Written written) mutable {
        boost::asio::post(strand_,
                          [this, owner = std::move(owner), done = std::move(done), written] {
                              last_ = written;
                              done(written);
                              pipeline_.committed();
                          });
    };
}

void TableWrites::save(const std::function<StoredTable()>& row, Done done) {
    pipeline_.begin_commit();
    ++revision_;
    store_.save_table(row(), on_strand(std::move(done)));
}

void TableWrites::append(const std::function<TableProgress()>& progress, const StoredMove& move,
                         Done done) {
    pipeline_.begin_commit();
    ++revision_;
    store_.append_move(progress(), move, on_strand(std::move(done)));
}

void TableWrites::remove(const std::string& id, Done done) {
    pipeline_.begin_commit();
    store_.remove_table(id, revision_, on_strand(std::move(done)));
}

}  // namespace gcor::server
