"""Put rendered replies on Telegram: send (in parts), edit in place, encode buttons.

Errors are Telegram's own (`RetryAfter`, `Forbidden`, `BadRequest`, `NetworkError`):
the callers decide what they mean for a reply or an outbox row.
"""

from __future__ import annotations

import asyncio
import html
import logging
import re
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime

from telegram import (
    Bot,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    LinkPreviewOptions,
    Message,
    ReplyParameters,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest

from bot import pictures
from bot.telegram_adapter.formatting import (
    TOKEN_PREFIX,
    Outgoing,
    Photo,
    callback_token,
    fits_callback,
    keyboard,
)
from bot.telegram_adapter.pacing import Pacer
from storage.unit_of_work import SqlUnitOfWork

log = logging.getLogger("clubtd.telegram")

BUTTONS_REMEMBERED = 2048  # tokens kept in memory; the table has them all (pruned)
_TAG = re.compile(r"<[^>]*>")
_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


def not_modified(error: BadRequest) -> bool:
    return "not modified" in error.message.lower()


def message_gone(error: BadRequest) -> bool:
    """Return whether an edit failed because the message cannot be edited any more."""
    text = error.message.lower()
    return any(
        phrase in text
        for phrase in (
            "message to edit not found",
            "message can't be edited",
            "message_id_invalid",
            "message not found",
            # A live message that changed kind (a picture turned to text or back).
            "there is no text in the message",
            "there is no media in the message",
        )
    )


def bad_markup(error: BadRequest) -> bool:
    return "can't parse entities" in error.message.lower()


class Buttons:
    """Callback data for button commands; a command over 64 bytes goes by a stored token.

    Button commands are built by the use cases from parsed values, never from typed
    text, so the tokens stay few and small; they are pruned with the other stores, and
    the in-memory copy keeps only the most recent ones.
    """

    def __init__(
        self,
        uow_factory: Callable[[], SqlUnitOfWork],
        *,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        remembered: int = BUTTONS_REMEMBERED,
    ) -> None:
        self._uow_factory = uow_factory
        self._clock = clock
        self._remembered = remembered
        self._known: OrderedDict[str, str] = OrderedDict()

    def _keep(self, token: str, command: str) -> None:
        self._known[token] = command
        self._known.move_to_end(token)
        while len(self._known) > self._remembered:
            self._known.popitem(last=False)

    async def data_for(self, command: str) -> str:
        if fits_callback(command):
            return command
        token = callback_token(command)
        if self._known.get(token) != command:
            async with self._uow_factory() as uow:
                await uow.buttons.put(token, command, self._clock())
                await uow.commit()
            self._keep(token, command)
        return token

    async def command_for(self, data: str) -> str | None:
        """Return the command a button press means, or None for unknown data."""
        if data.startswith("/"):
            return data
        if not data.startswith(TOKEN_PREFIX):
            return None
        command = self._known.get(data)
        if command is None:
            async with self._uow_factory() as uow:
                command = await uow.buttons.get(data)
            if command is None:
                return None
        self._keep(data, command)
        return command

    async def markup(self, buttons: tuple[tuple[str, str], ...]) -> InlineKeyboardMarkup | None:
        return keyboard([(label, await self.data_for(command)) for label, command in buttons])


class Messenger:
    """Send and edit messages; every message sent is recorded with the pacer."""

    def __init__(self, bot: Bot, buttons: Buttons, pacer: Pacer) -> None:
        self.bot = bot
        self.buttons = buttons
        self.pacer = pacer

    async def send(
        self,
        chat_id: int,
        outgoing: Outgoing,
        *,
        reply_to: int | None = None,
        sent: list[int] | None = None,
    ) -> list[int]:
        """Send every part (buttons under the last); return the message ids.

        `sent` collects the ids as parts go out; parts it already holds are skipped, so
        a retry after a failure in the middle does not repeat the first parts.
        """
        markup = await self.buttons.markup(outgoing.buttons)
        ids: list[int] = sent if sent is not None else []
        items: list[Photo | str] = [*outgoing.photos, *outgoing.chunks]
        for index, item in enumerate(items):
            if index < len(ids):
                continue
            last = index == len(items) - 1
            first = reply_to if index == 0 else None
            if isinstance(item, Photo):
                message = await self._send_photo(chat_id, item, markup if last else None, first)
            else:
                message = await self._send_chunk(chat_id, item, markup if last else None, first)
            ids.append(message.message_id)
        return list(ids)

    async def _send_photo(
        self,
        chat_id: int,
        photo: Photo,
        markup: InlineKeyboardMarkup | None,
        reply_to: int | None,
    ) -> Message:
        """Send a picture as a photo; if Telegram refuses the photo, send its text."""
        drawn = await asyncio.to_thread(
            pictures.render, photo.picture, photo.language, photo.timezone
        )
        reply = (
            ReplyParameters(reply_to, allow_sending_without_reply=True)
            if reply_to is not None
            else None
        )
        try:
            message = await self.bot.send_photo(
                chat_id,
                drawn.png,
                caption=drawn.caption,
                filename=drawn.filename,
                reply_markup=markup,
                reply_parameters=reply,
            )
        except BadRequest as error:
            if not photo.fallback:
                raise
            # A photo Telegram will not take (too large, say): the same content as text.
            log.warning("Telegram refused a picture (%s): sending its text", error)
            self.pacer.record(chat_id)
            for chunk in photo.fallback[:-1]:
                await self._send_chunk(chat_id, chunk, None, reply_to)
            return await self._send_chunk(chat_id, photo.fallback[-1], markup, reply_to)
        self.pacer.record(chat_id)
        return message

    async def _send_chunk(
        self,
        chat_id: int,
        chunk: str,
        markup: InlineKeyboardMarkup | None,
        reply_to: int | None,
    ) -> Message:
        reply = (
            ReplyParameters(reply_to, allow_sending_without_reply=True)
            if reply_to is not None
            else None
        )
        try:
            message = await self.bot.send_message(
                chat_id,
                chunk,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                link_preview_options=_NO_PREVIEW,
                reply_parameters=reply,
            )
        except BadRequest as error:
            if not bad_markup(error):
                raise
            # Our HTML should always parse; if it does not, the words still matter more.
            log.error("Telegram rejected our HTML (%s): %r", error, chunk[:200])
            message = await self.bot.send_message(
                chat_id,
                _as_plain(chunk),
                reply_markup=markup,
                link_preview_options=_NO_PREVIEW,
                reply_parameters=reply,
            )
        self.pacer.record(chat_id)
        return message

    async def edit(self, chat_id: int, message_ids: list[int], outgoing: Outgoing) -> bool:
        """Edit a message (or a multi-part one) in place; False if it cannot be edited."""
        photos = len(outgoing.photos)
        if len(message_ids) != photos + len(outgoing.chunks):
            return False
        markup = await self.buttons.markup(outgoing.buttons)
        for index, (message_id, photo) in enumerate(
            zip(message_ids[:photos], outgoing.photos, strict=True)
        ):
            last = index == len(message_ids) - 1
            if not await self._edit_photo(chat_id, message_id, photo, markup if last else None):
                return False
        for index, (message_id, chunk) in enumerate(
            zip(message_ids[photos:], outgoing.chunks, strict=True), start=photos
        ):
            last = index == len(message_ids) - 1
            try:
                await self.bot.edit_message_text(
                    chunk,
                    chat_id=chat_id,
                    message_id=message_id,
                    parse_mode=ParseMode.HTML,
                    reply_markup=markup if last else None,
                    link_preview_options=_NO_PREVIEW,
                )
            except BadRequest as error:
                if not_modified(error):
                    continue
                if message_gone(error):
                    return False
                raise
            self.pacer.record(chat_id)
        return True

    async def _edit_photo(
        self, chat_id: int, message_id: int, photo: Photo, markup: InlineKeyboardMarkup | None
    ) -> bool:
        """Put a new picture in a photo message; False if that message cannot take it."""
        drawn = await asyncio.to_thread(
            pictures.render, photo.picture, photo.language, photo.timezone
        )
        media = InputMediaPhoto(drawn.png, caption=drawn.caption, filename=drawn.filename)
        try:
            await self.bot.edit_message_media(
                media, chat_id=chat_id, message_id=message_id, reply_markup=markup
            )
        except BadRequest as error:
            if not_modified(error):
                return True
            # Gone, or a text message (sent while pictures were off): post a new one.
            log.info("cannot edit picture message %s: %s", message_id, error)
            return False
        self.pacer.record(chat_id)
        return True


def _as_plain(chunk: str) -> str:
    return html.unescape(_TAG.sub("", chunk))
