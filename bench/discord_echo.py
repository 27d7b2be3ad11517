"""The baseline for bench/discord.py: a discord.py bot whose one command echoes its text.

Configured like clubtd (CLUBTD_DISCORD_TOKEN, CLUBTD_DISCORD_API_URL) and connected the
same way (the gateway asked in setup_hook), so the two differ only in what they do.
Run: python -m bench.discord_echo
"""

from __future__ import annotations

import os

import discord
import yarl
from discord import app_commands


class Echo(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(name="echo", description="echo")
        async def echo(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message(text)  # the one line of the echo bot

    async def setup_hook(self) -> None:
        _, url, _ = await self.http.get_bot_gateway()
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        await self.tree.sync()


def main() -> None:
    discord.http.Route.BASE = os.environ["CLUBTD_DISCORD_API_URL"].rstrip("/")
    Echo().run(os.environ["CLUBTD_DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
