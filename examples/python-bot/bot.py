#!/usr/bin/env python3
"""A small third-party client for the Dominion server, written from docs/protocol.md.

It creates a room with one open seat and one server bot, takes the open seat, starts
the game, plays it to the end with simple "Big Money" rules, and prints the result.
If the connection drops it comes back with its seat token (`resume`).

    pip install -r requirements.txt
    python3 bot.py --url ws://127.0.0.1:8080/ws

With an account's API token (`--token dmn_…`, or the environment variable
DOMINION_TOKEN; made on your profile page) it plays as that account: its games then
appear on the account's profile. With the token of a bot account and `--ladder N` it
joins the rated bot ladder instead: it asks to be matched in the `bots` pool, accepts
each proposal, plays N games against whoever the server pairs it with (another bot
account, or one of the server's own bots), and prints its record and level changes.

    python3 bot.py --ladder 20 --token dmn_…
"""

import argparse
import asyncio
import json
import os
import sys

import websockets

PROTOCOL = 1
JUNK = ["curse", "estate", "duchy", "province", "copper"]  # discarded or trashed first


class ProtocolError(Exception):
    """The server refused a command (an `error` frame answering it)."""


class Player:
    def __init__(self, args):
        self.args = args
        self.ws = None
        self.next_id = 0
        self.room = None
        self.seat = None
        self.token = None
        self.last_event = None  # the number of the last game event received
        self.view = None  # the latest `view`
        self.names = {}
        self.decisions = 0
        self.room_state = None  # the latest `room`
        self.rating = None  # our entry of the latest `rating_changed`

    # --- the wire -----------------------------------------------------------------

    async def send(self, msg):
        await self.ws.send(json.dumps(msg))

    async def command(self, msg):
        """Sends a command with a fresh id (ids only grow) and returns the id."""
        self.next_id += 1
        msg["id"] = self.next_id
        await self.send(msg)
        return self.next_id

    async def recv(self):
        msg = json.loads(await self.ws.recv())
        self.observe(msg)
        return msg

    async def ask(self, msg):
        """Sends a command and returns its direct answer (the frame whose `re` is its id)."""
        cid = await self.command(msg)
        while True:
            answer = await self.recv()
            if answer.get("re") == cid:
                if answer["type"] == "error":
                    raise ProtocolError(f"{answer['code']}: {answer['message']}")
                return answer
            await self.handle(answer)

    async def connect(self):
        self.ws = await websockets.connect(self.args.url)
        hello = {"type": "hello", "protocol": PROTOCOL, "client": "python-bot"}
        if self.args.token:
            hello["token"] = self.args.token
        await self.send(hello)
        welcome = json.loads(await self.ws.recv())
        if welcome["type"] != "welcome":
            raise ProtocolError(f"no welcome: {welcome.get('code')}: {welcome.get('message', welcome)}")
        if "account" in welcome and not self.args.quiet:
            print(f"Signed in as {welcome['account']['name']}")

    # --- keeping track ------------------------------------------------------------

    def observe(self, msg):
        kind = msg["type"]
        if kind == "events":
            if msg["events"]:
                self.last_event = msg["first"] + len(msg["events"]) - 1
            self.view = msg["view"]
            for event in msg["events"]:
                self.narrate(event)
        elif kind == "snapshot":
            self.last_event = msg["next_event"] - 1 if msg["next_event"] > 0 else None
            self.view = msg["view"]
        elif kind == "room":
            self.room_state = msg["room"]
            for seat in msg["room"]["seats"]:
                occupant = seat["occupant"]
                if occupant["type"] == "human":
                    self.names[seat["seat"]] = occupant["name"]
                elif occupant["type"] == "bot":
                    self.names[seat["seat"]] = f"{occupant['bot']} (bot)"

    def name(self, seat):
        return self.names.get(seat, f"seat {seat}")

    def narrate(self, event):
        if self.args.quiet:
            return
        if event["type"] == "turn_started":
            self.turn = event["turn"]
        elif event["type"] == "bought":
            print(f"  turn {self.turn:2}: {self.name(event['seat']):>16} bought {event['card']}")

    # --- playing ------------------------------------------------------------------

    async def handle(self, msg):
        """Reacts to anything that is not a direct answer. Returns the result at the end."""
        if msg["type"] == "decision":
            self.decisions += 1
            await self.command({
                "type": "reply",
                "decision": msg["decision"],
                "reply": self.choose(msg),
            })
        elif msg["type"] == "error":
            # A reply overtaken by events (e.g. after a reconnect) is stale: harmless.
            if msg["code"] != "stale_decision":
                raise ProtocolError(f"{msg['code']}: {msg['message']}")
        elif msg["type"] == "game_over":
            return msg
        elif msg["type"] == "rating_changed":
            for change in msg["changes"]:
                if change["seat"] == self.seat:
                    self.rating = change
        return None

    def cost(self, card):
        for pile in (self.view or {}).get("supply", []):
            if pile["card"] == card:
                return pile["cost"]
        return 0

    def left(self, card):
        for pile in (self.view or {}).get("supply", []):
            if pile["card"] == card:
                return pile["count"]
        return 0

    def choose(self, decision):
        prompt = decision["prompt"]
        kind = prompt["kind"]
        if kind == "action_phase":
            # Asked even with nothing to play (whether it is asked is public): end it.
            if not prompt["playable"]:
                return {"type": "end_phase"}
            return {"type": "play", "card": prompt["playable"][0]}
        if kind == "buy_phase":
            if prompt["treasures"]:
                return {"type": "play_all_treasures"}
            buyable = prompt["buyable"]
            wants = ["province", "gold"]
            if self.left("province") <= 4:
                wants.insert(1, "duchy")
            if self.left("province") <= 2:
                wants.append("estate")
            wants.append("silver")
            for card in wants:
                if card in buyable:
                    return {"type": "buy", "card": card}
            return {"type": "end_phase"}
        if kind == "choose_cards":
            junk_first = sorted(prompt["options"], key=lambda c: (JUNK.index(c) if c in JUNK else 99, self.cost(c)))
            count = prompt["min"]
            if decision["purpose"] in ("discard", "trash"):
                # Beyond the minimum, let go of Curses and Estates only.
                extra = [c for c in junk_first[count:] if c in ("curse", "estate")]
                count = min(prompt["max"], count + len(extra))
            if decision["purpose"] == "react":
                count = prompt["max"]  # reveal Moat
            return {"type": "cards", "cards": junk_first[:count]}
        if kind == "choose_pile":
            options = sorted(prompt["options"], key=self.cost, reverse=True)
            return {"type": "pile", "card": options[0] if options else None}
        if kind == "choose_modes":
            return {"type": "modes", "modes": prompt["options"][: prompt["min"]]}
        if kind == "order_cards":
            return {"type": "cards", "cards": prompt["cards"]}
        if kind == "yes_no":
            return {"type": "yes_no", "yes": True}
        if kind == "name_card":
            return {"type": "name", "card": prompt["options"][0]}
        raise ProtocolError(f"unknown prompt kind {kind}")

    async def play(self):
        await self.connect()
        created = await self.ask({
            "type": "create_room",
            "settings": {
                "name": f"{self.args.name} vs {self.args.opponent}",
                "kingdom": {"type": "recommended", "id": self.args.kingdom},
                "seats": [{"type": "open"}, {"type": "bot", "bot": self.args.opponent}],
            },
        })
        self.room = created["room"]["id"]
        seated = await self.ask({"type": "take_seat", "room": self.room, "name": self.args.name})
        self.seat, self.token = seated["seat"], seated["token"]
        print(f"room {self.room}: {self.args.name} in seat {self.seat} against {self.args.opponent}")
        await self.ask({"type": "start"})
        reconnects = 0
        while True:
            try:
                while True:
                    result = await self.handle(await self.recv())
                    if result:
                        return result
            except websockets.ConnectionClosed:
                reconnects += 1
                if reconnects > 3:
                    raise
                print("connection lost; resuming the seat")
                await self.connect()
                resume = {"type": "resume", "room": self.room, "token": self.token}
                if self.last_event is not None:
                    resume["last_event"] = self.last_event
                seated = await self.ask(resume)
                self.next_id = max(self.next_id, seated["last_command"])


    # --- the rated bot ladder (docs/protocol.md, "The bot ladder") -------------------

    async def ladder_match(self):
        """Queues in the `bots` pool and accepts proposals until a match is found; then
        enters the room with the seat token, as after a reconnect."""
        # Answered by `match_queued`, which carries no `re`.
        await self.command({"type": "find_match", "pool": "bots"})
        while True:
            msg = await self.recv()
            kind = msg["type"]
            if kind == "match_queued":
                if not self.args.quiet and msg["waited_ms"] > 0:
                    print(f"  waiting for an opponent ({msg['waited_ms'] // 1000} s)")
            elif kind == "match_proposed":
                if not self.args.quiet:
                    names = ", ".join(o["name"] for o in msg["opponents"])
                    print(f"  proposed: against {names}; accepting")
                await self.command({"type": "accept_match", "match": msg["match"]})
            elif kind == "match_cancelled":
                # `requeued`: the other side declined; we are back at the front.
                if msg["reason"] != "requeued":
                    raise ProtocolError(f"the match was cancelled ({msg['reason']})")
            elif kind == "match_found":
                break
            elif kind == "error":
                raise ProtocolError(f"{msg['code']}: {msg['message']}")
        self.room, self.token = msg["room"], msg["token"]
        self.seat, self.last_event, self.view = msg["seat"], None, None
        self.names, self.room_state, self.rating = {}, None, None
        await self.ask({"type": "resume", "room": self.room, "token": self.token})

    async def start_when_ready(self):
        """The host starts the game once every seat is filled (another bot account may
        still be on its way to its seat)."""
        room = self.room_state or {}
        if (
            room.get("status") == "lobby"
            and room.get("host") == self.seat
            and all(s["occupant"]["type"] != "empty" for s in room["seats"])
        ):
            try:
                await self.ask({"type": "start"})
            except ProtocolError as e:
                if "game_already_started" not in str(e):
                    raise

    async def ladder_game(self):
        """One ladder game: matched, played to the end, its rating change read, left."""
        await self.ladder_match()
        await self.start_when_ready()
        while True:
            msg = await self.recv()
            result = await self.handle(msg)
            if result:
                break
            if msg["type"] == "room":
                await self.start_when_ready()
        # The rating changes once the game's end is stored: `rating_changed` follows.
        try:
            while self.rating is None:
                await self.handle(await asyncio.wait_for(self.recv(), timeout=10))
        except asyncio.TimeoutError:
            pass
        await self.ask({"type": "leave"})
        return result

    async def ladder(self, games):
        """Plays `games` ladder games; returns (won, tied, lost)."""
        await self.connect()
        record = [0, 0, 0]
        for n in range(1, games + 1):
            result = await self.ladder_game()
            ours = next(s for s in result["scores"] if s["seat"] == self.seat)
            winners = sum(1 for s in result["scores"] if s["winner"])
            outcome = 0 if ours["winner"] and winners == 1 else 1 if ours["winner"] else 2
            record[outcome] += 1
            others = ", ".join(self.name(s["seat"]) for s in result["scores"] if s["seat"] != self.seat)
            level = ""
            if self.rating:
                r = self.rating
                level = f"; {r['pool']} level {r['level_before']:.2f} -> {r['level_after']:.2f}"
            print(f"game {n}/{games} in room {self.room} vs {others}: {['won', 'tied', 'lost'][outcome]}{level}", flush=True)
        return tuple(record)


def report(player, result):
    print(f"Game over after {player.decisions} decisions of ours.")
    for line in result["scores"]:
        mark = "  winner" if line["winner"] else ""
        print(f"  {player.name(line['seat']):>16}: {line['vp']:3} VP in {line['turns']} turns{mark}")
    for deck in result["decks"]:
        counts = {}
        for card in deck["cards"]:
            counts[card] = counts.get(card, 0) + 1
        summary = ", ".join(f"{n} {c}" for c, n in sorted(counts.items(), key=lambda kv: -kv[1]))
        print(f"  {deck['name']:>16}'s cards: {summary}")
    winners = [player.name(s["seat"]) for s in result["scores"] if s["winner"]]
    print(f"Result: {' and '.join(winners)} won (seed {result['seed']}, {len(result['replies'])} replies)")


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="ws://127.0.0.1:8080/ws", help="the server's WebSocket URL")
    parser.add_argument("--name", default="PyBot", help="our display name")
    parser.add_argument("--opponent", default="big_money", help="the server bot to play against")
    parser.add_argument("--kingdom", default="base_2e/first_game", help="a recommended kingdom id")
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    parser.add_argument(
        "--token",
        default=os.environ.get("DOMINION_TOKEN"),
        help="an account's API token (dmn_…): play as that account (default: $DOMINION_TOKEN)",
    )
    parser.add_argument(
        "--ladder",
        type=int,
        metavar="N",
        help="with a bot account's token: play N games on the rated bot ladder (pool bots)",
    )
    args = parser.parse_args()
    player = Player(args)
    if args.ladder is not None:
        if not args.token or args.ladder < 1:
            print("error: --ladder N needs N >= 1 and a bot account's token (--token)", file=sys.stderr)
            return 2
        try:
            won, tied, lost = await player.ladder(args.ladder)
        except (ProtocolError, OSError, websockets.WebSocketException) as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        level = f", level {player.rating['level_after']:.2f}" if player.rating else ""
        print(f"Ladder: {won} won, {tied} tied, {lost} lost{level}")
        await player.ws.close()
        return 0
    try:
        result = await player.play()
    except (ProtocolError, OSError, websockets.WebSocketException) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    report(player, result)
    await player.ws.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
