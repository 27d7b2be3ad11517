'use strict';
// telegram-test-api 4.2.1 with the shim python-telegram-bot 22 needs (shared/PLATFORMS.md).
//
//   node server.js [--host 127.0.0.1] [--port 0]
//
// Prints one line `ready <port>` once listening (port 0: the system picks a free one).
// Fixes, all in front of the library's own routes:
//   - getMe has is_bot (the Application cannot initialise without it);
//   - bot messages get `date` in seconds, `from` and the chat's real type;
//   - callback-query updates get chat_instance and a complete message;
//   - editMessageText / editMessageReplyMarkup return the edited message, and answer
//     "message is not modified" / "message to edit not found" as Telegram does;
//   - answerCallbackQuery returns true (and is recorded);
//   - sendPhoto, sendDocument (multer), setMyCommands, getMyCommands, getChatMember;
//   - a photo comes back as Telegram's PhotoSize array; editMessageMedia replaces it
//     (and answers "there is no media in the message to edit" for a text message);
//   - getUpdates long-polls up to `timeout` seconds, as Telegram does;
//   - setWebhook keeps the secret token and updates are POSTed with it in the
//     X-Telegram-Bot-Api-Secret-Token header, as Telegram does.
// Test controls (POST, JSON): /shim/admins {chatId, userIds}, /shim/block {chatId, blocked},
// /shim/fail {method, count, error_code, description, retry_after}, /shim/state, /shim/reset,
// /shim/next {token, chatId, after, contains, timeout}: wait for the bot's next message in a
// chat (with `contains` in its text).

const multer = require('multer');
const routesModule = require('telegram-test-api/lib/routes/index');
const { TelegramServer } = require('telegram-test-api/lib/telegramServer');

const args = process.argv.slice(2);
function option(name, fallback) {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && at + 1 < args.length ? args[at + 1] : fallback;
}
const host = option('host', '127.0.0.1');
const port = Number(option('port', '0'));

const BOT = { id: 666, is_bot: true, first_name: 'Club TD', username: 'TestNameBot' };
const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: 20 * 1024 * 1024 } });

const shim = {
  admins: new Map(), // chat id -> Set of user ids
  blocked: new Set(), // chat ids a bot may not write to (403)
  faults: [], // {method, count, error_code, description, retry_after}
  callbackAnswers: [],
  commands: {}, // scope key -> [{command, description}]
  calls: [], // [method, chat_id]
};

function seconds() {
  return Math.floor(Date.now() / 1000);
}

function chatOf(chatId, fallback) {
  const id = Number(chatId);
  if (id < 0) {
    return { id, type: 'supergroup', title: (fallback && fallback.title) || `Group ${id}` };
  }
  return { id, type: 'private', first_name: (fallback && fallback.first_name) || 'User' };
}

function botMessageOut(stored) {
  // What the bot receives back for one of its messages, in Bot API form.
  const m = stored.message;
  const out = {
    message_id: stored.messageId,
    date: Math.floor(stored.time / 1000),
    chat: chatOf(m.chat_id),
    from: BOT,
  };
  for (const key of ['text', 'caption', 'photo', 'document', 'entities']) {
    if (m[key] !== undefined) out[key] = m[key];
  }
  if (m.edit_date) out.edit_date = m.edit_date;
  if (m.reply_markup && m.reply_markup.inline_keyboard) out.reply_markup = m.reply_markup;
  return out;
}

function params(req) {
  return Object.assign({}, req.query || {}, req.body || {});
}

function takeFault(method) {
  const index = shim.faults.findIndex((f) => f.method === method && f.count > 0);
  if (index < 0) return null;
  const fault = shim.faults[index];
  fault.count -= 1;
  if (fault.count <= 0) shim.faults.splice(index, 1);
  return fault;
}

function sendFault(res, fault) {
  const body = { ok: false, error_code: fault.error_code, description: fault.description };
  if (fault.retry_after) body.parameters = { retry_after: fault.retry_after };
  res.status(fault.error_code).json(body);
}

function findBotMessage(server, chatId, messageId) {
  return server.storage.botMessages.find(
    (u) => String(u.messageId) === String(messageId)
      && String(u.message.chat_id) === String(chatId),
  );
}

function shimRoutes(app, server) {
  const bot = (method, handler, middleware) => {
    const path = `/bot:token/${method}`;
    const wrapped = (req, res, next) => {
      const p = params(req);
      if (method !== 'getUpdates') {
        shim.calls.push([method, p.chat_id === undefined ? null : String(p.chat_id)]);
      }
      const fault = takeFault(method);
      if (fault) return sendFault(res, fault);
      if (p.chat_id !== undefined && shim.blocked.has(String(p.chat_id))) {
        return res.status(403).json({
          ok: false,
          error_code: 403,
          description: "Forbidden: bot can't initiate conversation with a user",
        });
      }
      return handler(req, res, next, p);
    };
    if (middleware) app.post(path, middleware, wrapped);
    app.all(path, wrapped);
  };

  bot('getMe', (req, res) => res.json({ ok: true, result: BOT }));

  bot('getUpdates', (req, res, next, p) => {
    const token = req.params.token;
    const unread = () => server.storage.userMessages.some(
      (u) => u.botToken === token && !u.isRead,
    );
    const timeout = Math.min(Number(p.timeout || 0), 50) * 1000;
    const reply = () => res.json({ ok: true, result: server.getUpdates(token) });
    if (unread() || timeout <= 0) return reply();
    let done = false;
    const events = ['AddedUserMessage', 'AddedUserCommand', 'AddedUserCallbackQuery'];
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      events.forEach((e) => server.off(e, onEvent));
      reply();
    };
    const onEvent = () => { if (unread()) finish(); };
    const timer = setTimeout(finish, timeout);
    events.forEach((e) => server.on(e, onEvent));
    res.on('close', () => {
      if (!done) {
        done = true;
        clearTimeout(timer);
        events.forEach((e) => server.off(e, onEvent));
      }
    });
    return undefined;
  });

  const edit = (kind) => (req, res, next, p) => {
    const stored = findBotMessage(server, p.chat_id, p.message_id);
    if (!stored) {
      return res.status(400).json({
        ok: false, error_code: 400, description: 'Bad Request: message to edit not found',
      });
    }
    const message = TelegramServer.normalizeMessage(Object.assign({}, p));
    const before = JSON.stringify([stored.message.text, stored.message.reply_markup || null]);
    const text = kind === 'text' ? message.text : stored.message.text;
    // Without reply_markup, both edits leave the message without buttons, as Telegram does.
    const markup = message.reply_markup || null;
    if (JSON.stringify([text, markup || null]) === before) {
      return res.status(400).json({
        ok: false,
        error_code: 400,
        description: 'Bad Request: message is not modified: specified new message content '
          + 'and reply markup are exactly the same as a current content and reply markup '
          + 'of the message',
      });
    }
    stored.message = Object.assign({}, stored.message, {
      text, reply_markup: markup || undefined, edit_date: seconds(),
    });
    if (kind === 'text' && message.parse_mode) stored.message.parse_mode = message.parse_mode;
    server.emit(kind === 'text' ? 'EditedMessageText' : 'EditedMessageReplyMarkup');
    return res.json({ ok: true, result: botMessageOut(stored) });
  };
  bot('editMessageText', edit('text'));
  bot('editMessageReplyMarkup', edit('markup'));

  bot('answerCallbackQuery', (req, res, next, p) => {
    shim.callbackAnswers.push({ id: String(p.callback_query_id), text: p.text || null, at: Date.now() });
    res.json({ ok: true, result: true });
  });

  const scopeKey = (p) => {
    const scope = typeof p.scope === 'string' ? JSON.parse(p.scope) : (p.scope || { type: 'default' });
    return `${scope.type}${p.language_code ? `:${p.language_code}` : ''}`;
  };
  bot('setMyCommands', (req, res, next, p) => {
    const commands = typeof p.commands === 'string' ? JSON.parse(p.commands) : p.commands;
    shim.commands[scopeKey(p)] = commands;
    res.json({ ok: true, result: true });
  });
  bot('getMyCommands', (req, res, next, p) => {
    res.json({ ok: true, result: shim.commands[scopeKey(p)] || [] });
  });
  bot('deleteMyCommands', (req, res, next, p) => {
    delete shim.commands[scopeKey(p)];
    res.json({ ok: true, result: true });
  });

  bot('getChatMember', (req, res, next, p) => {
    const user = { id: Number(p.user_id), is_bot: false, first_name: 'User' };
    const admins = shim.admins.get(String(p.chat_id)) || new Set();
    if (admins.has(String(p.user_id))) {
      res.json({
        ok: true,
        result: {
          status: 'administrator', user, can_be_edited: false, is_anonymous: false,
          can_manage_chat: true, can_delete_messages: true, can_manage_video_chats: true,
          can_restrict_members: true, can_promote_members: false, can_change_info: true,
          can_invite_users: true, can_post_stories: false, can_edit_stories: false,
          can_delete_stories: false,
        },
      });
      return;
    }
    res.json({ ok: true, result: { status: 'member', user } });
  });

  let uploads = 0;
  const photoSizes = (file) => {
    // Telegram answers with the sizes it keeps; ours is the upload itself (PNG header).
    uploads += 1;
    const png = file && file.buffer && file.buffer.length > 24
      && file.buffer.toString('latin1', 1, 4) === 'PNG';
    return [{
      file_id: `photo-${uploads}`,
      file_unique_id: `unique-${uploads}`,
      width: png ? file.buffer.readUInt32BE(16) : 0,
      height: png ? file.buffer.readUInt32BE(20) : 0,
      file_size: file ? file.size : 0,
    }];
  };
  const media = (field) => (req, res, next, p) => {
    const file = req.file || null;
    const value = field === 'photo' ? photoSizes(file)
      : { file_name: file ? file.originalname : String(p[field] || ''), size: file ? file.size : 0 };
    const stored = server.addBotMessage(Object.assign({}, p, { [field]: value }), req.params.token);
    const entry = findBotMessage(server, p.chat_id, stored.message_id);
    res.json({ ok: true, result: botMessageOut(entry) });
  };
  bot('sendPhoto', media('photo'), upload.single('photo'));
  bot('sendDocument', media('document'), upload.single('document'));

  bot('editMessageMedia', (req, res, next, p) => {
    const stored = findBotMessage(server, p.chat_id, p.message_id);
    if (!stored) {
      return res.status(400).json({
        ok: false, error_code: 400, description: 'Bad Request: message to edit not found',
      });
    }
    if (!stored.message.photo) {
      return res.status(400).json({
        ok: false, error_code: 400, description: 'Bad Request: there is no media in the message to edit',
      });
    }
    const spec = typeof p.media === 'string' ? JSON.parse(p.media) : (p.media || {});
    const name = String(spec.media || '').replace('attach://', '');
    const file = (req.files || []).find((f) => f.fieldname === name) || null;
    const markup = typeof p.reply_markup === 'string' ? JSON.parse(p.reply_markup) : p.reply_markup;
    stored.message = Object.assign({}, stored.message, {
      photo: photoSizes(file), caption: spec.caption, reply_markup: markup || undefined,
      edit_date: seconds(),
    });
    server.emit('EditedMessageMedia');
    return res.json({ ok: true, result: botMessageOut(stored) });
  }, upload.any());

  // Webhooks: remember the secret token and send it with every update, as Telegram does.
  bot('setWebhook', (req, res, next, p) => {
    server.setWebhook({ url: p.url, secret_token: p.secret_token || '' }, req.params.token);
    res.json({ ok: true, result: true });
  });
  bot('deleteWebhook', (req, res) => {
    server.deleteWebhook(req.params.token);
    res.json({ ok: true, result: true });
  });
  bot('getWebhookInfo', (req, res) => {
    const hook = server.webhooks[req.params.token];
    res.json({
      ok: true,
      result: { url: hook ? hook.url : '', has_custom_certificate: false, pending_update_count: 0 },
    });
  });

  // sendMessage: the library's route, after faults and blocked chats are applied above.
  bot('sendMessage', (req, res, next) => next());

  app.post('/shim/admins', (req, res) => {
    shim.admins.set(String(req.body.chatId), new Set((req.body.userIds || []).map(String)));
    res.json({ ok: true, result: true });
  });
  app.post('/shim/block', (req, res) => {
    if (req.body.blocked === false) shim.blocked.delete(String(req.body.chatId));
    else shim.blocked.add(String(req.body.chatId));
    res.json({ ok: true, result: true });
  });
  app.post('/shim/fail', (req, res) => {
    shim.faults.push({
      method: req.body.method,
      count: Number(req.body.count || 1),
      error_code: Number(req.body.error_code || 500),
      description: req.body.description || 'Internal Server Error',
      retry_after: req.body.retry_after ? Number(req.body.retry_after) : undefined,
    });
    res.json({ ok: true, result: true });
  });
  app.post('/shim/state', (req, res) => {
    res.json({
      ok: true,
      result: {
        callbackAnswers: shim.callbackAnswers,
        commands: shim.commands,
        calls: shim.calls,
      },
    });
  });
  app.post('/shim/next', (req, res) => {
    // Wait for the bot's next message in a chat (after message id `after`): for latency.
    const token = req.body.token;
    const chatId = String(req.body.chatId);
    const after = Number(req.body.after || 0);
    const contains = req.body.contains || '';
    const find = () => server.storage.botMessages.find(
      (u) => u.botToken === token && String(u.message.chat_id) === chatId && u.messageId > after
        && String(u.message.text || '').includes(contains),
    );
    const found = find();
    if (found) return res.json({ ok: true, result: found });
    let done = false;
    const onMessage = () => {
      const hit = find();
      if (hit && !done) {
        done = true;
        clearTimeout(timer);
        server.off('AddedBotMessage', onMessage);
        res.json({ ok: true, result: hit });
      }
    };
    const timer = setTimeout(() => {
      done = true;
      server.off('AddedBotMessage', onMessage);
      res.json({ ok: true, result: null });
    }, Number(req.body.timeout || 10) * 1000);
    server.on('AddedBotMessage', onMessage);
    return undefined;
  });
  app.post('/shim/reset', (req, res) => {
    shim.admins.clear();
    shim.blocked.clear();
    shim.faults.length = 0;
    shim.callbackAnswers.length = 0;
    shim.calls.length = 0;
    res.json({ ok: true, result: true });
  });
}

// Our routes first: the library's routes array is read when a server is constructed.
routesModule.routes.unshift(shimRoutes);

const originalAdd = TelegramServer.prototype.addBotMessage;
TelegramServer.prototype.addBotMessage = function addBotMessage(rawMessage, botToken) {
  // The library echoes the raw request fields (JSON strings); answer in Bot API form.
  originalAdd.call(this, rawMessage, botToken);
  return botMessageOut(this.storage.botMessages[this.storage.botMessages.length - 1]);
};

TelegramServer.prototype.addUserUpdate = async function addUserUpdate(update) {
  const webhook = this.webhooks[update.botToken];
  if (!webhook) {
    this.storage.userMessages.push(update);
  } else {
    this.storage.userMessages.push(Object.assign({}, update, { isRead: true }));
    try {
      const response = await fetch(webhook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-telegram-bot-api-secret-token': webhook.secret_token || '',
        },
        body: JSON.stringify(TelegramServer.formatUpdate(update)),
      });
      webhook.lastStatus = response.status;
    } catch (error) {
      webhook.lastStatus = String(error);
    }
  }
  this.updateId += 1;
};

const originalFormat = TelegramServer.formatUpdate;
TelegramServer.formatUpdate = function formatUpdate(update) {
  const out = originalFormat.call(TelegramServer, update);
  if (out.callback_query) {
    const query = out.callback_query;
    const message = Object.assign({}, query.message || {});
    const chat = message.chat || chatOf(message.chat_id);
    if (message.message_id === undefined) message.message_id = 1;
    if (!message.date) message.date = seconds();
    message.chat = chat;
    if (!message.from) message.from = BOT;
    query.message = message;
    query.chat_instance = String(chat.id);
  } else if (out.message) {
    if (!out.message.date) out.message.date = seconds();
    if (out.message.date > 100000000000) out.message.date = Math.floor(out.message.date / 1000);
    delete out.message.botToken;
  }
  return out;
};

async function main() {
  const server = new TelegramServer({ host, port: port || 1, storeTimeout: 24 * 3600 });
  server.config.port = port;
  server.setMaxListeners(0); // every long poll and /shim/next waits on an event
  await server.start();
  const address = server.server.address();
  process.stdout.write(`ready ${address.port}\n`);
  const stop = () => {
    // Long polls hold connections open: do not wait for them for long.
    setTimeout(() => process.exit(0), 300).unref();
    server.stop().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
