#!/usr/bin/env python3
"""Tests of ha_poll.py: the HA state and applied transaction id read from a NameNode's /jmx answer
(the beans as a 2.7.3 NameNode serves them), and when a standby counts as caught up."""
import json
import unittest

import ha_poll


def jmx(*beans):
    return json.dumps({"beans": list(beans)})


STANDBY = jmx({"name": ha_poll.STATUS, "modelerType": "org.apache.hadoop.hdfs.server.namenode.NameNode",
               "State": "standby", "NNRole": "NameNode", "HostAndPort": "localhost:35235"})
INFO = jmx({"name": ha_poll.INFO, "modelerType": "org.apache.hadoop.hdfs.server.namenode.FSNamesystem",
            "JournalTransactionInfo": "{\"MostRecentCheckpointTxId\":\"0\",\"LastAppliedOrWrittenTxId\":\"9\"}"})


class ParseTest(unittest.TestCase):

    def test_state_and_txid_are_read_from_their_beans(self):
        self.assertEqual("standby", ha_poll.parse_state(STANDBY))
        self.assertEqual(9, ha_poll.parse_txid(INFO))

    def test_a_missing_bean_or_attribute_or_a_bad_answer_is_none(self):
        self.assertIsNone(ha_poll.parse_state(INFO))
        self.assertIsNone(ha_poll.parse_txid(STANDBY))
        self.assertIsNone(ha_poll.parse_txid(jmx({"name": ha_poll.INFO})))
        self.assertIsNone(ha_poll.parse_txid(jmx({"name": ha_poll.INFO, "JournalTransactionInfo": "{}"})))
        self.assertIsNone(ha_poll.parse_state("<html>starting</html>"))


class ModeTest(unittest.TestCase):

    def test_the_mode_is_the_nvm_beans_persist_mode_tag(self):
        nvm = {"name": ha_poll.NVM, "modelerType": "NvmNamespace", "tag.PersistMode": "disk",
               "tag.RegionPath": "/var/tmp/x/nn1.region"}
        self.assertEqual("disk", ha_poll.parse_mode(jmx(nvm)))
        # a second source of the same JVM
        self.assertEqual("emulated", ha_poll.parse_mode(jmx(dict(nvm, **{"name": ha_poll.NVM + "-1",
                                                                        "tag.PersistMode": "emulated"}))))

    def test_no_nvm_bean_or_a_bad_answer_is_none(self):
        self.assertIsNone(ha_poll.parse_mode(STANDBY))
        self.assertIsNone(ha_poll.parse_mode(jmx({"name": ha_poll.NVM})))
        self.assertIsNone(ha_poll.parse_mode(jmx({"name": ha_poll.NVM + "Other", "tag.PersistMode": "disk"})))
        self.assertIsNone(ha_poll.parse_mode("<html>starting</html>"))


class SatisfiedTest(unittest.TestCase):

    def test_a_standby_is_caught_up_at_or_past_the_target_txid(self):
        self.assertTrue(ha_poll.satisfied("standby", 100, "standby", 100))
        self.assertTrue(ha_poll.satisfied("standby", 105, "standby", 100))
        self.assertFalse(ha_poll.satisfied("standby", 99, "standby", 100))

    def test_the_state_must_match_and_an_unknown_txid_is_not_caught_up(self):
        self.assertFalse(ha_poll.satisfied("active", 100, "standby", 100))
        self.assertFalse(ha_poll.satisfied("standby", None, "standby", 1))
        self.assertTrue(ha_poll.satisfied("active", None, "active", None))


if __name__ == "__main__":
    unittest.main()
