"""An offline Telegram: a recording BaseRequest with canned Bot API answers.

The real python-telegram-bot Application runs on top of it (`process_update`), so the
adapter is tested through the library, with no network at all.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from telegram.request import BaseRequest, RequestData

BOT_ID = 4242
BOT_USERNAME = "clubtd_bot"
GROUP = -1001234


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    status: int = 0  # the HTTP status Telegram answered with


@dataclass
class Fault:
    status: int
    description: str
    retry_after: int | None = None


@dataclass
class RecordingRequest(BaseRequest):
    """Record every Bot API call; answer like Telegram would, or with a queued fault."""

    calls: list[Call] = field(default_factory=list)
    faults: dict[str, list[Fault]] = field(default_factory=dict)
    blocked: set[int] = field(default_factory=set)  # users who never started the bot
    admins: dict[int, set[int]] = field(default_factory=dict)  # chat -> admin user ids
    messages: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    next_id: int = 100

    def __hash__(self) -> int:
        return id(self)

    @property
    def read_timeout(self) -> float | None:
        return 5.0

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    def fail(self, method: str, status: int, description: str, retry_after: int | None = None):
        self.faults.setdefault(method, []).append(Fault(status, description, retry_after))

    def sent(self, method: str = "sendMessage", chat_id: int | None = None) -> list[Call]:
        """Return the successful calls of `method` (to `chat_id`)."""
        return [
            c
            for c in self.calls
            if c.method == method
            and c.status == 200
            and (chat_id is None or int(c.params["chat_id"]) == chat_id)
        ]

    def texts(self, chat_id: int | None = None) -> list[str]:
        return [c.params["text"] for c in self.sent("sendMessage", chat_id)]

    def methods(self) -> list[str]:
        return [c.method for c in self.calls]

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        name = url.rsplit("/", 1)[-1]
        params = dict(request_data.parameters) if request_data is not None else {}
        call = Call(name, params)
        self.calls.append(call)
        call.status, body = self._answer(name, params)
        return call.status, body

    def _answer(self, name: str, params: dict[str, Any]) -> tuple[int, bytes]:
        queued = self.faults.get(name)
        if queued:
            fault = queued.pop(0)
            body: dict[str, Any] = {
                "ok": False,
                "error_code": fault.status,
                "description": fault.description,
            }
            if fault.retry_after is not None:
                body["parameters"] = {"retry_after": fault.retry_after}
            return fault.status, json.dumps(body).encode()
        handler = getattr(self, f"_{name}", None)
        if handler is None:
            return _error(400, f"Bad Request: method {name} is not canned")
        return handler(params)

    # -- canned Bot API methods --

    def _getMe(self, params: dict[str, Any]) -> tuple[int, bytes]:
        return _ok(
            {
                "id": BOT_ID,
                "is_bot": True,
                "first_name": "Club TD",
                "username": BOT_USERNAME,
                "can_join_groups": True,
            }
        )

    def _sendMessage(self, params: dict[str, Any]) -> tuple[int, bytes]:
        chat_id = int(params["chat_id"])
        if chat_id in self.blocked:
            return _error(403, "Forbidden: bot can't initiate conversation with a user")
        self.next_id += 1
        message = _message(self.next_id, chat_id, params)
        self.messages[(chat_id, self.next_id)] = message
        return _ok(message)

    def _editMessageText(self, params: dict[str, Any]) -> tuple[int, bytes]:
        key = (int(params["chat_id"]), int(params["message_id"]))
        old = self.messages.get(key)
        if old is None:
            return _error(400, "Bad Request: message to edit not found")
        if "photo" in old:
            return _error(400, "Bad Request: there is no text in the message to edit")
        if old.get("text") == params["text"] and old.get("reply_markup") == params.get(
            "reply_markup"
        ):
            return _error(400, "Bad Request: message is not modified: specified new message")
        message = _message(key[1], key[0], params)
        self.messages[key] = message
        return _ok(message)

    def _sendPhoto(self, params: dict[str, Any]) -> tuple[int, bytes]:
        chat_id = int(params["chat_id"])
        if chat_id in self.blocked:
            return _error(403, "Forbidden: bot can't initiate conversation with a user")
        self.next_id += 1
        message = _message(self.next_id, chat_id, params)
        message.pop("text")
        message["photo"] = [_PHOTO]
        message["caption"] = params.get("caption", "")
        self.messages[(chat_id, self.next_id)] = message
        return _ok(message)

    def _editMessageMedia(self, params: dict[str, Any]) -> tuple[int, bytes]:
        key = (int(params["chat_id"]), int(params["message_id"]))
        old = self.messages.get(key)
        if old is None:
            return _error(400, "Bad Request: message to edit not found")
        if "photo" not in old:
            return _error(400, "Bad Request: there is no media in the message to edit")
        media = params["media"]
        media = json.loads(media) if isinstance(media, str) else media
        message = dict(old, caption=media.get("caption", ""), edit_date=int(time.time()))
        self.messages[key] = message
        return _ok(message)

    def _editMessageReplyMarkup(self, params: dict[str, Any]) -> tuple[int, bytes]:
        return _ok(True)

    def _answerCallbackQuery(self, params: dict[str, Any]) -> tuple[int, bytes]:
        return _ok(True)

    def _setMyCommands(self, params: dict[str, Any]) -> tuple[int, bytes]:
        return _ok(True)

    def _getChatAdministrators(self, params: dict[str, Any]) -> tuple[int, bytes]:
        chat_id = int(params["chat_id"])
        return _ok(
            [
                {"status": "creator", "is_anonymous": False, "user": _person(user_id)}
                for user_id in sorted(self.admins.get(chat_id, set()))
            ]
        )

    def _getChatMember(self, params: dict[str, Any]) -> tuple[int, bytes]:
        chat_id, user_id = int(params["chat_id"]), int(params["user_id"])
        user = {"id": user_id, "is_bot": False, "first_name": "U"}
        if user_id in self.admins.get(chat_id, set()):
            return _ok({"status": "creator", "user": user, "is_anonymous": False})
        return _ok({"status": "member", "user": user})


def _person(user_id: int) -> dict[str, Any]:
    return {"id": user_id, "is_bot": False, "first_name": "U"}


_PHOTO = {"file_id": "p1", "file_unique_id": "u1", "width": 1000, "height": 400}


def _message(message_id: int, chat_id: int, params: dict[str, Any]) -> dict[str, Any]:
    chat = (
        {"id": chat_id, "type": "supergroup", "title": "Club"}
        if chat_id < 0
        else {"id": chat_id, "type": "private", "first_name": "U"}
    )
    message: dict[str, Any] = {
        "message_id": message_id,
        "date": int(time.time()),
        "chat": chat,
        "from": {"id": BOT_ID, "is_bot": True, "first_name": "Club TD"},
        "text": params.get("text", ""),
    }
    if params.get("reply_markup"):
        message["reply_markup"] = params["reply_markup"]
    return message


def _ok(result: Any) -> tuple[int, bytes]:
    return 200, json.dumps({"ok": True, "result": result}).encode()


def _error(status: int, description: str) -> tuple[int, bytes]:
    return status, json.dumps(
        {"ok": False, "error_code": status, "description": description}
    ).encode()


def user(user_id: int, name: str) -> dict[str, Any]:
    first, _, last = name.partition(" ")
    data: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first}
    if last:
        data["last_name"] = last
    return data


def message_update(
    update_id: int,
    sender: dict[str, Any],
    text: str,
    *,
    chat_id: int = GROUP,
    sender_chat: dict[str, Any] | None = None,
    message_id: int | None = None,
) -> dict[str, Any]:
    """Return a Bot API update: `sender` typed `text` in a chat (a group by default)."""
    chat = (
        {"id": chat_id, "type": "supergroup", "title": "Club"}
        if chat_id < 0
        else {"id": chat_id, "type": "private", "first_name": sender["first_name"]}
    )
    message: dict[str, Any] = {
        "message_id": message_id or update_id,
        "date": int(time.time()),
        "chat": chat,
        "from": sender,
        "text": text,
    }
    if text.startswith("/"):
        head = text.split(" ", 1)[0]
        message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(head)}]
    if sender_chat is not None:
        message["sender_chat"] = sender_chat
    return {"update_id": update_id, "message": message}


def callback_update(
    update_id: int,
    presser: dict[str, Any],
    data: str,
    *,
    chat_id: int,
    message_id: int,
) -> dict[str, Any]:
    """Return a Bot API update: `presser` tapped a button with `data` under a bot message."""
    chat = (
        {"id": chat_id, "type": "supergroup", "title": "Club"}
        if chat_id < 0
        else {"id": chat_id, "type": "private", "first_name": presser["first_name"]}
    )
    return {
        "update_id": update_id,
        "callback_query": {
            "id": f"cb{update_id}",
            "from": presser,
            "chat_instance": str(chat_id),
            "data": data,
            "message": {
                "message_id": message_id,
                "date": int(time.time()),
                "chat": chat,
                "from": {"id": BOT_ID, "is_bot": True, "first_name": "Club TD"},
                "text": "(a bot message)",
            },
        },
    }
