"""Put rendered replies on Telegram: send (in parts), edit in place, encode buttons.

Errors are Telegram's own (`RetryAfter`, `Forbidden`, `BadRequest`, `NetworkError`):
the callers decide what they mean for a reply or an outbox row.
"""

from __future__ import annotations

import asyncio
import html
import logging
import re
from collections.abc import Callable
from datetime import datetime

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
from bot.pictures import Drawn
from bot.sending.buttons import ButtonStore
from bot.sending.pacing import WindowPacer
from bot.telegram_adapter.formatting import Outgoing, Photo, keyboard
from commands.replies import Picture
from storage.unit_of_work import SqlUnitOfWorkFactory

log = logging.getLogger("clubtd.telegram")

CALLBACK_DATA_LIMIT = 64  # bytes a button's callback data may carry
_TAG = re.compile(r"<[^>]*>")
_NO_PREVIEW = LinkPreviewOptions(is_disabled=True)

Draw = Callable[[Picture, str, str], Drawn]  # the picture renderer (bot.pictures.render)


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


def buttons(uow_factory: SqlUnitOfWorkFactory, clock: Callable[[], datetime]) -> ButtonStore:
    """Return the shared button store for Telegram's 64-byte callback data; its tokens
    are stored without a prefix, as they always were."""
    return ButtonStore(uow_factory, limit=CALLBACK_DATA_LIMIT, clock=clock)


class Messenger:
    """Send and edit messages; every message sent is recorded with the pacer. Pictures
    are drawn by `draw` off the event loop; one that cannot be drawn goes as its text."""

    def __init__(
        self, bot: Bot, buttons: ButtonStore, pacer: WindowPacer, draw: Draw = pictures.render
    ) -> None:
        self.bot = bot
        self.buttons = buttons
        self.pacer = pacer
        self.draw = draw

    async def _drawn(self, photo: Photo) -> Drawn | None:
        """Draw a picture in a worker thread; None if drawing it failed and it has a text
        twin (a bug there must not lose the message: its text goes instead)."""
        try:
            return await asyncio.to_thread(
                self.draw, photo.picture, photo.language, photo.timezone
            )
        except Exception:
            if not photo.fallback:
                raise
            log.exception("could not draw %s: sending its text", photo.picture.name)
            return None

    def delay(self, chat_id: int) -> float:
        """Return how many seconds `chat_id` must wait before its next message."""
        return self.pacer.delay(str(chat_id))

    def pause(self, chat_id: int, seconds: float) -> None:
        """Hold a chat back (Telegram said so with retry_after)."""
        self.pacer.pause(str(chat_id), seconds)

    def _record(self, chat_id: int) -> None:
        self.pacer.record(str(chat_id))

    async def markup(self, buttons: tuple[tuple[str, str], ...]) -> InlineKeyboardMarkup | None:
        return keyboard(
            [(label, await self.buttons.data_for(command)) for label, command in buttons]
        )

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
        markup = await self.markup(outgoing.buttons)
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
        """Send a picture as a photo; if it cannot be drawn or Telegram refuses the
        photo, send its text."""
        drawn = await self._drawn(photo)
        if drawn is None:
            return await self._send_text(chat_id, photo.fallback, markup, reply_to)
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
            self._record(chat_id)
            return await self._send_text(chat_id, photo.fallback, markup, reply_to)
        self._record(chat_id)
        return message

    async def _send_text(
        self,
        chat_id: int,
        chunks: tuple[str, ...],
        markup: InlineKeyboardMarkup | None,
        reply_to: int | None,
    ) -> Message:
        """Send a picture's text twin (buttons under its last chunk); return the last."""
        for chunk in chunks[:-1]:
            await self._send_chunk(chat_id, chunk, None, reply_to)
        return await self._send_chunk(chat_id, chunks[-1], markup, reply_to)

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
        self._record(chat_id)
        return message

    async def edit(self, chat_id: int, message_ids: list[int], outgoing: Outgoing) -> bool:
        """Edit a message (or a multi-part one) in place; False if it cannot be edited."""
        photos = len(outgoing.photos)
        if len(message_ids) != photos + len(outgoing.chunks):
            return False
        markup = await self.markup(outgoing.buttons)
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
            self._record(chat_id)
        return True

    async def _edit_photo(
        self, chat_id: int, message_id: int, photo: Photo, markup: InlineKeyboardMarkup | None
    ) -> bool:
        """Put a new picture in a photo message; False if that message cannot take it
        (or the picture cannot be drawn: its text is then posted anew)."""
        drawn = await self._drawn(photo)
        if drawn is None:
            return False
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
        self._record(chat_id)
        return True


def _as_plain(chunk: str) -> str:
    return html.unescape(_TAG.sub("", chunk))
