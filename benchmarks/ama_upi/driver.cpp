// A UPI engine around ama (github.com/citrus610/ama): reads the host's `position` and `go`, asks ama's own
// search and `ai::think` for the current pair, answers `bestmove X R` in puzzlebots' convention.
//
// Written for puzzlebots (benchmarks/puyo_vs_ama.py builds it against a checkout the user names); nothing of
// ama is copied here: the driver only includes ama's headers and is linked with its sources.
//
//   driver --config AMA/config.json [--reach strict|climb12] [--width W] [--depth D] [--log FILE]
//
// --log (or the environment's PUZZLEBOTS_AMA_LOG, which keeps the command, and so the bot's name in a match's
// result file, the same from run to run) appends each move's think time in milliseconds.
//
// Conventions (checked by the script's round trip before every match):
// - pfen: six columns, each bottom-up in `rgbyo` and closed by '/'; r g b y are ama's RED GREEN BLUE YELLOW,
//   o is garbage. ama plays with 4 colours, so a fifth colour (p) is refused.
// - a queue is pairs "axis child"; ama's cell::Pair is {axis, child} (drop_pair puts `first` at the axis).
// - bestmove X R: X = 1..6, the axis column; R = 0 child above, 1 right, 2 below, 3 left: ama's
//   direction::Type UP RIGHT DOWN LEFT in that order, and its x is 0-based, so X = x + 1 and R = r.
//
// What the host's fields become for ama's `think` (ama's Steam harness, which fills them, is not public):
// - self/enemy field and queue: the two boards and queues. While the other side's chain runs, the host shows
//   its board from before the placement that fired it; the driver finds that placement (the pair the other
//   side's queue lost since the last position, every reachable placement whose chain has at least the links
//   already popped, the longest; the same one again while that side's queue and board stay as they were) and
//   gives ama the board after the chain, its length and its garbage.
// - attack: the garbage a side is sending and that has not fallen yet (the other side's fixed + incoming).
// - attack_frame, in ama's units (a placement 1 or 2, a link 2): twice the links of the other side's chain still
//   to pop; 0 when nothing is running (fixed garbage falls after this placement).
// - dropping: the side's fixed garbage; all_clear: the board is empty after the first frame; bonus: the carried
//   score plus 2100 after an all clear.
// - target points: from the frame, the reference's margin time (70; from 96 s 52, 35, 26, 17, 13, 8, 6, 4, 3,
//   2, 1), puzzlebots' default `margin_targets = reference`.
// - the build search is what ama's own search thread computes between pairs for a queue of two (beam over the
//   current and next pair with its six fixed futures, and its three dfs searches), with the trigger `think`
//   asked for on the move before (then back to ama's default); --width and --depth set the beam's size
//   (default ama's own, 250 and 16).
// - ama has no time control: `go MS` is read and ignored; the search is ama's fixed size.
// - a move ama picks that the host's reach rule forbids (ama lets a pair climb a 12-high column by a floor
//   kick; puzzlebots' `strict` rule does not) is replaced by the first allowed one ama's move generator lists.

#include <fstream>
#include <sstream>

#include "ai/ai.h"

namespace
{

struct Side
{
    Field field;
    cell::Queue queue;
    i64 frame = 0;
    i64 carry = 0;
    i64 fixed = 0;
    i64 incoming = 0;
    i64 chain = 0;
};

struct Failure
{
    std::string what;
};

cell::Type colour_of(char c)
{
    switch (c)
    {
    case 'r': case 'R': return cell::Type::RED;
    case 'g': case 'G': return cell::Type::GREEN;
    case 'b': case 'B': return cell::Type::BLUE;
    case 'y': case 'Y': return cell::Type::YELLOW;
    case 'o': case 'O': return cell::Type::GARBAGE;
    }
    throw Failure { std::string("unknown puyo '") + c + "' (ama plays the colours r g b y and garbage o)" };
}

char letter_of(cell::Type t)
{
    switch (t)
    {
    case cell::Type::RED: return 'r';
    case cell::Type::GREEN: return 'g';
    case cell::Type::BLUE: return 'b';
    case cell::Type::YELLOW: return 'y';
    case cell::Type::GARBAGE: return 'o';
    default: return '.';
    }
}

Field field_of_pfen(const std::string& text)
{
    Field field;
    i8 x = 0;
    i8 y = 0;
    for (char c : text) {
        if (c == '/') {
            if (x >= 6) {
                throw Failure { "a pfen board has 6 columns: " + text };
            }
            ++x;
            y = 0;
            continue;
        }
        if (x >= 6 || y >= 13) {
            throw Failure { "a pfen column holds at most 13 puyos: " + text };
        }
        field.set_cell(x, y, colour_of(c));
        ++y;
    }
    if (x != 6 || text.empty() || text.back() != '/') {
        throw Failure { "a pfen board is 6 columns each closed by '/': " + text };
    }
    return field;
}

std::string pfen_of(Field& field)
{
    std::string out;
    for (i8 x = 0; x < 6; ++x) {
        for (i8 y = 0; y < field.get_height(x); ++y) {
            out += letter_of(field.get_cell(x, y));
        }
        out += '/';
    }
    return out;
}

cell::Queue queue_of(const std::string& text)
{
    if (text.size() < 4 || text.size() % 2) {
        throw Failure { "a queue of at least two pairs is needed, got '" + text + "'" };
    }
    cell::Queue queue;
    for (size_t i = 0; i < text.size(); i += 2) {
        auto a = colour_of(text[i]);
        auto b = colour_of(text[i + 1]);
        if (a == cell::Type::GARBAGE || b == cell::Type::GARBAGE) {
            throw Failure { "a queue holds colours only, got '" + text + "'" };
        }
        queue.push_back({ a, b });
    }
    return queue;
}

i64 number_of(const std::string& text)
{
    if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos) {
        throw Failure { "position fields 3-7 are whole numbers, got '" + text + "'" };
    }
    return std::stoll(text);
}

Side side_of(const std::vector<std::string>& words, size_t at)
{
    Side side;
    side.field = field_of_pfen(words[at]);
    side.queue = queue_of(words[at + 1]);
    side.frame = number_of(words[at + 2]);
    side.carry = number_of(words[at + 3]);
    side.fixed = number_of(words[at + 4]);
    side.incoming = number_of(words[at + 5]);
    side.chain = number_of(words[at + 6]);
    return side;
}

// The target points in force at `frame` (puzzlebots frames.target_points, margin_targets = reference).
i32 target_points(i64 frame)
{
    constexpr i32 MARGIN[] = { 52, 35, 26, 17, 13, 8, 6, 4, 3, 2, 1, 1 };
    constexpr i64 START = 96 * 60;
    constexpr i64 STEP = 16 * 60;
    if (frame < START) {
        return 70;
    }
    i64 step = std::min<i64>((frame - START) / STEP, 11);
    return MARGIN[step];
}

// Whether the host's reach rule allows the placement: every column from the spawn column to the pair's columns
// at most `crossable` high, and the axis not resting in row 14 (puzzlebots kernels.placements.placement_mask).
bool host_allows(Field& field, move::Placement p, i32 crossable)
{
    u8 heights[6];
    field.get_heights(heights);
    if (heights[2] > crossable) {
        return false;
    }
    i32 lo = 2;
    while (lo > 0 && heights[lo - 1] <= crossable) {
        --lo;
    }
    i32 hi = 2;
    while (hi < 5 && heights[hi + 1] <= crossable) {
        ++hi;
    }
    i32 cx = p.x + direction::get_offset_x(p.r);
    i32 axis_row = heights[p.x] + (p.r == direction::Type::DOWN ? 1 : 0);
    return lo <= p.x && p.x <= hi && lo <= cx && cx <= hi && axis_row < 13;
}

// Points of the links of `links` from link `from` on (link numbers count from the first).
i32 score_from(avec<Field, 19> links, i32 from)
{
    avec<Field, 19> head;
    for (i32 i = 0; i < from && i < links.get_size(); ++i) {
        head.add(links[i]);
    }
    i32 all = chain::get_score(links).score;
    return all - chain::get_score(head).score;
}

struct Running
{
    bool found = false;
    Field after;
    avec<Field, 19> links;
    i32 count = 0;
    i32 rest_score = 0;
};

// The other side's chain in progress: the placement of `pair` on `before` (the board the host shows) whose chain
// has at least `popped` links, the longest (then the highest scoring).
Running running_chain(Field before, cell::Pair pair, i32 popped)
{
    Running best;
    auto moves = move::generate(before, pair.first == pair.second);
    for (i32 i = 0; i < moves.get_size(); ++i) {
        Field f = before;
        f.drop_pair(moves[i].x, moves[i].r, pair);
        auto links = f.pop();
        if (links.get_size() < popped || popped <= 0) {
            continue;
        }
        i32 rest = score_from(links, popped);
        if (!best.found || links.get_size() > best.count || (links.get_size() == best.count && rest > best.rest_score)) {
            best = Running { .found = true, .after = f, .links = links, .count = links.get_size(), .rest_score = rest };
        }
    }
    return best;
}

// The pair the other side placed since its queue was `before` (its queue is `now`), if the queues overlap.
std::optional<cell::Pair> placed_pair(const cell::Queue& before, const cell::Queue& now)
{
    for (size_t shift = 1; shift <= before.size(); ++shift) {
        bool same = true;
        for (size_t i = shift; i < before.size() && i - shift < now.size(); ++i) {
            same = same && before[i] == now[i - shift];
        }
        if (same) {
            return before[shift - 1];
        }
    }
    return {};
}

class Engine
{
public:
    search::Configs configs;
    i32 crossable = 11;
    size_t width = beam::Configs().width;
    size_t depth = beam::Configs().depth;
    std::string log_path;
private:
    Side me;
    Side other;
    bool positioned = false;
    cell::Queue other_before;
    Running running;
    Field running_before;
    std::optional<i32> trigger_next;
public:
    // What ama's search thread (search::Thread) computes between two pairs for a queue of two: its beam search
    // over six fixed futures and its three dfs build searches; here with the beam's width and depth settable.
    search::Result build_search(Field field, cell::Queue queue)
    {
        search::Result result;
        result.build = beam::search_multi(field, queue, configs.build, beam_configs());
        result.freestyle = dfs::build::search(field, queue, configs.freestyle);
        result.fast = dfs::build::search(field, queue, configs.fast);
        result.ac = dfs::build::search(field, queue, configs.ac);
        return result;
    }

    beam::Configs beam_configs()
    {
        beam::Configs beam = beam::Configs();
        beam.width = width;
        beam.depth = depth;
        if (trigger_next.has_value()) {
            beam.trigger = size_t(trigger_next.value());
        }
        return beam;
    }

    void new_game()
    {
        positioned = false;
        other_before.clear();
        running = Running();
        trigger_next.reset();
    }

    void position(const std::vector<std::string>& words)
    {
        if (words.size() != 15) {
            throw Failure { "position takes 14 fields, got " + std::to_string(words.size() - 1) };
        }
        Side a = side_of(words, 1);
        Side b = side_of(words, 8);
        me = a;
        if (positioned) {
            other_before = other.queue;
        }
        other = b;
        positioned = true;
    }

    std::string go()
    {
        if (!positioned) {
            throw Failure { "go before any position" };
        }
        auto start = std::chrono::steady_clock::now();
        i32 target = target_points(me.frame);

        gaze::Player self;
        self.field = me.field;
        self.queue = me.queue;
        self.all_clear = me.frame > 0 && me.field.is_empty();
        self.bonus = i32(me.carry) + (self.all_clear ? 2100 : 0);
        self.attack = i32(other.fixed + other.incoming);
        self.dropping = i32(me.fixed);

        gaze::Player enemy;
        enemy.field = other.field;
        enemy.queue = other.queue;
        enemy.all_clear = other.frame > 0 && other.field.is_empty();
        enemy.bonus = i32(other.carry) + (enemy.all_clear ? 2100 : 0);
        enemy.attack = i32(me.fixed + me.incoming);
        enemy.dropping = i32(other.fixed);
        if (other.chain > 0) {
            enemy.attack_chain = i32(other.chain);
            enemy.attack_frame = 2;
            // the same queue and board as at the last position: the same chain, still running
            bool same = other_before == other.queue && running.found && other.field == running_before;
            if (!same) {
                auto pair = placed_pair(other_before, other.queue);
                running = pair.has_value() ? running_chain(other.field, pair.value(), i32(other.chain)) : Running();
                running_before = other.field;
            }
            if (running.found && running.count >= other.chain) {
                enemy.field = running.after;
                enemy.all_clear = running.after.is_empty();
                enemy.attack_chain = running.count;
                enemy.attack_frame = 2 * (running.count - i32(other.chain));
                enemy.attack += score_from(running.links, i32(other.chain)) / target;
            }
        }

        auto searched = build_search(self.field, { self.queue[0], self.queue[1] });

        auto result = ai::think(self, enemy, searched, configs, target, ai::style::Data(),
                                trigger_next.value_or(ai::TRIGGER), true);
        trigger_next = result.update.trigger;

        auto placement = result.placement;
        if (!host_allows(self.field, placement, crossable)) {
            auto moves = move::generate(self.field, self.queue[0].first == self.queue[0].second);
            for (i32 i = 0; i < moves.get_size(); ++i) {
                if (host_allows(self.field, moves[i], crossable)) {
                    placement = moves[i];
                    break;
                }
            }
        }
        std::string said;
        if (other.chain > 0) {
            said = "info other chain " + std::to_string(enemy.attack_chain) + " links, attack_frame "
                + std::to_string(enemy.attack_frame) + ", attack " + std::to_string(enemy.attack) + "\n";
        }
        auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (!log_path.empty()) {
            std::ofstream log(log_path, std::ios::app);
            log << ms << "\n";
        }
        return said + "bestmove " + std::to_string(placement.x + 1) + " " + std::to_string(i32(placement.r));
    }

    // Not UPI: drops the current pair at X R on our board as ama does (then pops) and shows the board, so that
    // the script can check this driver's colours and rotations against puzzlebots' engine.
    std::string drop(const std::vector<std::string>& words)
    {
        if (!positioned || words.size() != 3) {
            throw Failure { "drop takes X R after a position" };
        }
        i32 x = i32(number_of(words[1])) - 1;
        i32 r = i32(number_of(words[2]));
        if (x < 0 || x > 5 || r > 3) {
            throw Failure { "drop takes X 1..6 and R 0..3" };
        }
        Field f = me.field;
        f.drop_pair(i8(x), direction::Type(r), me.queue[0]);
        auto links = f.pop();
        return "info field " + pfen_of(f) + " chain " + std::to_string(chain::get_score(links).score);
    }
};

search::Configs load_configs(const std::string& path)
{
    std::ifstream file(path);
    if (!file.good()) {
        throw Failure { "cannot read ama's config " + path };
    }
    json js = json::parse(file);
    search::Configs configs;
    configs.build = js.at("build").get<beam::eval::Weight>();
    configs.freestyle = js.at("freestyle").get<dfs::eval::Weight>();
    configs.fast = js.at("fast").get<dfs::eval::Weight>();
    configs.ac = js.at("ac").get<dfs::eval::Weight>();
    return configs;
}

}  // namespace

int main(int argc, char** argv)
{
    Engine engine;
    std::string config_path = "config.json";
    try {
        for (int i = 1; i < argc; ++i) {
            std::string arg = argv[i];
            if (i + 1 >= argc) {
                throw Failure { "option " + arg + " takes a value" };
            }
            std::string value = argv[++i];
            if (arg == "--config") {
                config_path = value;
            }
            else if (arg == "--reach" && (value == "strict" || value == "climb12")) {
                engine.crossable = value == "strict" ? 11 : 12;
            }
            else if (arg == "--width" || arg == "--depth") {
                i64 n = number_of(value);
                if (n < 1 || n > 10000 || (arg == "--depth" && n > 64)) {
                    throw Failure { arg + " takes 1..10000 (depth 1..64)" };
                }
                (arg == "--width" ? engine.width : engine.depth) = size_t(n);
            }
            else if (arg == "--log") {
                engine.log_path = value;
            }
            else {
                throw Failure { "unknown option " + arg + " " + value };
            }
        }
        if (engine.log_path.empty() && std::getenv("PUZZLEBOTS_AMA_LOG") != nullptr) {
            engine.log_path = std::getenv("PUZZLEBOTS_AMA_LOG");
        }
        engine.configs = load_configs(config_path);
    }
    catch (const Failure& failure) {
        std::cerr << "error: " << failure.what << std::endl;
        return 2;
    }
    catch (const std::exception& error) {
        std::cerr << "error: ama's config " << config_path << ": " << error.what() << std::endl;
        return 2;
    }

    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::vector<std::string> words;
        for (std::string w; in >> w;) {
            words.push_back(w);
        }
        if (words.empty()) {
            continue;
        }
        const std::string& cmd = words[0];
        try {
            if (cmd == "upi") {
                std::cout << "id name ama (puzzlebots UPI driver)\nid author citrus610\nupiok" << std::endl;
            }
            else if (cmd == "isready") {
                std::cout << "readyok" << std::endl;
            }
            else if (cmd == "upinewgame") {
                engine.new_game();
            }
            else if (cmd == "position") {
                engine.position(words);
            }
            else if (cmd == "go") {
                std::cout << engine.go() << std::endl;
            }
            else if (cmd == "drop") {
                std::cout << engine.drop(words) << std::endl;
            }
            else if (cmd == "quit") {
                return 0;
            }
            else if (cmd != "gameover") {
                throw Failure { "unknown command " + cmd };
            }
        }
        catch (const Failure& failure) {
            // a host that sent what the driver cannot play gets no move: it learns why from the exit code
            std::cerr << "error: " << failure.what << std::endl;
            return 2;
        }
    }
    return 0;
}
