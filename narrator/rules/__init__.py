"""The rules of Mafia as plain data and pure functions. Nothing here touches audio, web or the clock."""
